package slidingwindow

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// loop is the benchmark: TryAcquire on a window of 1,024 buckets, so that
// work that grows with the buckets shows.
func loop(newW New, seed uint64) func(n int) uint64 {
	w := newW(benchLimit, benchBuckets*benchBucketNs, benchBuckets)
	return check.Stepped(benchSteps(seed), func(now uint64) bool { return w.TryAcquire(now) })
}

// Bench figures: 1,024 buckets of 10 µs, a limit of 2,560 calls per
// window, calls on average every 2 µs (twice what the limit lets through;
// gaps drawn for each run from its seed), and an idle gap of two windows
// every 16,384 calls. About half the calls are refused.
const (
	benchBuckets  = 1024
	benchBucketNs = 10_000
	benchLimit    = 2560
)

func benchSteps(seed uint64) *check.Tables[uint64] {
	s := check.Gaps(seed, 1<<14, 4000)
	s.Warm[len(s.Warm)-1] += 2 * benchBuckets * benchBucketNs
	s.Timed[len(s.Timed)-1] += 2 * benchBuckets * benchBucketNs
	return s
}

// API is what the grading child serves for impl, with the reference
// (reference_gen.go) beside it in the benchmark (see harness.Limiter).
func API(impl New) harness.API { return harness.Limiter(impl, reference, loop) }

// iteration words one iteration of loop for the stub's Grading section
// (see check.Budget), its figures the benchmark's own.
var iteration = check.Iteration{What: "TryAcquire, on a window of " + check.Count(benchBuckets) + " buckets,", Per: "call"}
