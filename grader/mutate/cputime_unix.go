//go:build unix

package mutate

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process and the children it waited for
// (builds, grading programs, hunts) have used, user and system.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
