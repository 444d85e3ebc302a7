package harness

import "syscall"

// memoryLimit caps the child's address space, so that code that allocates
// without end fails in the child instead of starving the machine.
const memoryLimit = 8 << 30

func limitResources() {
	syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: memoryLimit, Max: memoryLimit})
}
