//go:build unix

package class

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// processGone reports whether no process has the id pid: signal 0 checks
// without sending, ESRCH says there is none (EPERM: one of another user's).
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// ownedByMe reports whether fi's file belongs to this process's user.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
