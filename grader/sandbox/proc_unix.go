//go:build unix

package sandbox

import (
	"os/exec"
	"syscall"
)

// OwnGroup starts cmd in a process group of its own, so that KillGroup
// reaches whatever it started too.
func OwnGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// KillGroup kills cmd's whole process group.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
