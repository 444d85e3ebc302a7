//go:build !linux

package grader

import "os/exec"

// isolate does nothing where Linux namespaces and credentials are missing:
// probe has logged that the child keeps the network.
func (s *Sandbox) isolate(cmd *exec.Cmd) {}

func newNetNSWorks() bool { return false }
