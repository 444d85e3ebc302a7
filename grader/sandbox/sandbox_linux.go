package sandbox

import (
	"os"
	"os/exec"
	"syscall"
)

// isolate runs cmd as the sandbox's user in a new network namespace, when
// the grader is root (probe found out).
func (s *Sandbox) isolate(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if s.asRoot {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(s.User), Gid: uint32(s.Group), NoSetGroups: false}
	}
	if s.netns {
		cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWNET
	}
	// A PID namespace of its own: the child is its process 1, and when it
	// is killed the kernel kills every process it started, one that left
	// its process group (setsid) or its parent (a double fork) included.
	if s.pidns {
		cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWPID
	}
	// If the grader dies (a crash, SIGKILL), so does the child: it must not
	// spin on for the rest of its CPU limit with nobody reading it.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// runAs runs cmd as user uid, group gid.
func runAs(cmd *exec.Cmd, uid, gid int) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// ownedBy reports whether fi's owner is uid.
func ownedBy(fi os.FileInfo, uid int) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == uid
}

// newNetNSWorks reports whether a child can be started in a new network
// namespace here.
func newNetNSWorks() bool { return newNSWorks(syscall.CLONE_NEWNET) }

// newPIDNSWorks reports whether a child can be started in a new PID
// namespace here.
func newPIDNSWorks() bool { return newNSWorks(syscall.CLONE_NEWPID) }

func newNSWorks(flag uintptr) bool {
	cmd := exec.Command("/bin/true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: flag}
	return cmd.Run() == nil
}
