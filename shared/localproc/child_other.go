//go:build !linux

package localproc

import "os/exec"

func configureChild(cmd *exec.Cmd) {}
