package tokenbucket

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
	ref "ratelab/solutions/tokenbucket"
)

// loop is the benchmark: TryAcquire at 1,000,000 tokens/s with a burst of
// 100, called on average twice as often as the rate allows, so about half
// the calls are refused.
func loop(newB New, n int) uint64 {
	tb := newB(100, 1_000_000, 0)
	return check.Loop(n, benchSteps, func(now uint64) bool { return tb.TryAcquire(now, 1) })
}

var benchSteps = check.Steps(4096, 1000)

// refNew is the reference solution (see check.API.Ref).
func refNew(capacity, rate, now uint64) Bucket { return ref.New(capacity, rate, now) }

// API is what the grading child serves for impl, with the reference
// (refNew) beside it in the benchmark (see harness.Limiter).
func API(impl New) harness.API { return harness.Limiter(impl, refNew, loop) }
