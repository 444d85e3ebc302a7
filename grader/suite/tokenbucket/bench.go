package tokenbucket

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// loop is the benchmark: TryAcquire at 1,000,000 tokens/s with a burst of
// 100, called on average twice as often as the rate allows (gaps drawn for
// each run from its seed, uniform in [0, 1,000] ns), so about half the
// calls are refused.
func loop(newB New, seed uint64) func(n int) uint64 {
	tb := newB(100, 1_000_000, 0)
	return check.Stepped(check.Gaps(seed, 4096, 1000), func(now uint64) bool { return tb.TryAcquire(now, 1) })
}

// API is what the grading child serves for impl, with the reference
// (reference_gen.go) beside it in the benchmark (see harness.Limiter).
func API(impl New) harness.API { return harness.Limiter(impl, reference, loop) }

// iteration words one iteration of loop for the stub's Grading section
// (see check.Budget), its figures the benchmark's own.
var iteration = check.Iteration{What: "TryAcquire", Per: "call"}
