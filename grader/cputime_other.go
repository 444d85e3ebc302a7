//go:build !linux

package grader

import "time"

// cpuTime reports that this OS gives the grader no per-process CPU time it
// can read while the child runs: benchmarks fall back to the child's own
// clock, which only the learner on their own machine relies on.
func cpuTime(pid int) (time.Duration, bool) { return 0, false }

// cpuUsed is cpuTime's reading without the wait; not available either: a
// call's only limit is then its check's deadline.
func cpuUsed(pid int) (time.Duration, bool) { return 0, false }
