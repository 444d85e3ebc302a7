//go:build windows

package grader

import "os/exec"

// ownGroup does nothing on Windows, which has no process groups: the child
// starts nothing of its own.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the child process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
