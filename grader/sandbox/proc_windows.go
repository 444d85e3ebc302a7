//go:build windows

package sandbox

import "os/exec"

// OwnGroup does nothing on Windows, which has no process groups: the child
// starts nothing of its own.
func OwnGroup(cmd *exec.Cmd) {}

// KillGroup kills the child process.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
