//go:build unix

package grader

import (
	"errors"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// answerPipe returns the pipe the child answers on. Its ends are blocking
// files, not the runtime's poller's: the grader waits for an answer with
// poll(2) and reads it with one read(2) on its own thread (see readDirect).
// Measured on a two-core VM, a call's round trip then costs both
// processes about half the CPU time it does through the poller, which
// parks and wakes goroutines and threads around every read. direct is
// true: the answers are read where they are awaited.
func answerPipe() (r, w *os.File, direct bool, err error) {
	var p [2]int
	// Both ends close on exec, like os.Pipe's; the fork lock keeps a
	// process started meanwhile from inheriting them.
	syscall.ForkLock.RLock()
	err = syscall.Pipe(p[:])
	if err == nil {
		syscall.CloseOnExec(p[0])
		syscall.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, false, os.NewSyscallError("pipe", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), true, nil
}

// waitReadable waits at most d for f (an answerPipe read end) to have
// something to read, or its writers to be gone; ready says which came first.
func waitReadable(f *os.File, d time.Duration) (ready bool, err error) {
	fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLIN}}
	ms := int(d.Milliseconds())
	if d > 0 && ms == 0 {
		ms = 1
	}
	for {
		n, err := unix.Poll(fds, ms)
		if errors.Is(err, unix.EINTR) {
			continue // a signal (the runtime's preemption, say); the wait is short anyway
		}
		if err != nil {
			return false, os.NewSyscallError("poll", err)
		}
		return n > 0, nil
	}
}
