package harness

import "syscall"

// memoryLimit caps the child's address space, so that code that allocates
// without end fails in the child instead of starving the machine.
const memoryLimit = 8 << 30

// limitResources lowers the limit to memoryLimit, never raises it: a
// sandboxing grader may have started the child under a tighter one (and a
// child running as root could otherwise lift it).
func limitResources() {
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &cur); err == nil && cur.Cur <= memoryLimit {
		return
	}
	syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: memoryLimit, Max: min(cur.Max, memoryLimit)})
}
