package gcra

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
	ref "ratelab/solutions/gcra"
)

// API is what the grading child serves for impl, with the reference ref
// beside it in the benchmark.
func API(impl, ref New) harness.API { return harness.Limiter(impl, ref, loop) }

// Remote returns New for the implementation r serves: every call it makes
// is a call in r's process.
func Remote(r check.Remote) New {
	return func(ratePerSec, burst, nowNs uint64) Limiter {
		return remoteLimiter{check.NewObject(r, "New", ratePerSec, burst, nowNs)}
	}
}

type remoteLimiter struct{ check.Object }

func (x remoteLimiter) TryAcquire(nowNs uint64) bool {
	return check.Get[bool](x.Object, "TryAcquire", nowNs)
}

// refNew is the reference solution: the benchmark's decisions must be its.
func refNew(rate, burst, now uint64) Limiter { return ref.New(rate, burst, now) }

// loop is the benchmark: TryAcquire at 1,000,000 calls/s with a burst of
// 100, called on average twice as often as the rate allows, so about half
// the calls are refused.
func loop(newG New, n int) uint64 {
	g := newG(1_000_000, 100, 0)
	return check.Loop(n, benchSteps, func(now uint64) bool { return g.TryAcquire(now) })
}

var benchSteps = check.Steps(4096, 1000)
