package tokenbucket

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
	ref "ratelab/solutions/tokenbucket"
)

// API is what the grading child serves for impl, with the reference ref
// beside it in the benchmark.
func API(impl, ref New) harness.API { return harness.Limiter(impl, ref, loop) }

// Remote returns New for the implementation r serves: every call it makes
// is a call in r's process.
func Remote(r check.Remote) New {
	return func(capacity, ratePerSec, nowNs uint64) Bucket {
		return remoteBucket{check.NewObject(r, "New", capacity, ratePerSec, nowNs)}
	}
}

type remoteBucket struct{ check.Object }

func (x remoteBucket) TryAcquire(nowNs, n uint64) bool {
	return check.Get[bool](x.Object, "TryAcquire", nowNs, n)
}

func (x remoteBucket) Available(nowNs uint64) uint64 {
	return check.Get[uint64](x.Object, "Available", nowNs)
}

// refNew is the reference solution: the benchmark's decisions must be its.
func refNew(capacity, rate, now uint64) Bucket { return ref.New(capacity, rate, now) }

// loop is the benchmark: TryAcquire at 1,000,000 tokens/s with a burst of
// 100, called on average twice as often as the rate allows, so about half
// the calls are refused.
func loop(newB New, n int) uint64 {
	tb := newB(100, 1_000_000, 0)
	return check.Loop(n, benchSteps, func(now uint64) bool { return tb.TryAcquire(now, 1) })
}

var benchSteps = check.Steps(4096, 1000)
