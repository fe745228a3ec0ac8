package localproc

import (
	"os/exec"
	"syscall"
)

// configureChild makes the kernel kill the child if its parent dies, so no process is left behind.
func configureChild(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
