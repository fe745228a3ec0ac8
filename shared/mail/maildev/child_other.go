//go:build !linux

package maildev

import "os/exec"

func configureChild(cmd *exec.Cmd) {}
