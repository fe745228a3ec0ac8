//go:build !linux

package localaws

import "os/exec"

func configureChild(cmd *exec.Cmd) {}
