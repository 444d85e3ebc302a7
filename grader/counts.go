package grader

import (
	"sync/atomic"
	"time"
)

// Counts are what gradings asked of their grading programs: the calls of
// the learner's code the grader's replays made, how many of those the
// program had made ahead of them (see check.Ahead), and the round trips
// (request lines written, each waiting for its answer line) it took. They
// are measurements, for make bench: no verdict reads them. A Counts is
// safe for concurrent use by the gradings of GradeVariants.
type Counts struct {
	calls, ahead, trips, childNs atomic.Int64
}

// Calls returns how many calls of the learner's code the replays made.
func (c *Counts) Calls() int64 { return c.calls.Load() }

// Ahead returns how many of Calls were answered from calls sent ahead.
func (c *Counts) Ahead() int64 { return c.ahead.Load() }

// RoundTrips returns how many requests the grading programs answered.
func (c *Counts) RoundTrips() int64 { return c.trips.Load() }

// ChildCPU returns the CPU time the grading programs took, as the
// operating system counted it when each exited (0 where it does not tell).
func (c *Counts) ChildCPU() time.Duration { return time.Duration(c.childNs.Load()) }

// Reset sets every count to 0.
func (c *Counts) Reset() {
	c.calls.Store(0)
	c.ahead.Store(0)
	c.trips.Store(0)
	c.childNs.Store(0)
}

// trip counts a round trip, if c is not nil.
func (c *Counts) trip() {
	if c != nil {
		c.trips.Add(1)
	}
}

// call counts a call, and whether it was sent ahead, if c is not nil.
func (c *Counts) call(ahead bool) {
	if c != nil {
		c.calls.Add(1)
		if ahead {
			c.ahead.Add(1)
		}
	}
}

// childExited counts the CPU time of a grading program, if c is not nil.
func (c *Counts) childExited(cpu time.Duration) {
	if c != nil {
		c.childNs.Add(int64(cpu))
	}
}
