package gcra

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
	"ratelab/grader/wire"
	ref "ratelab/solutions/gcra"
)

// API is what the grading child serves for impl, with the reference ref
// beside it in the benchmark.
func API(impl, ref New) harness.API {
	return harness.API{
		Funcs: map[string]any{"New": impl},
		Bench: map[string]func(int) uint64{
			"learner":   func(n int) uint64 { return loop(impl, n) },
			"reference": func(n int) uint64 { return loop(ref, n) },
		},
	}
}

// Remote returns New for the implementation r serves: every call it makes
// is a call in r's process.
func Remote(r check.Remote) New {
	return func(ratePerSec, burst, nowNs uint64) Limiter {
		var o wire.Obj
		r.Call(0, "New", []any{ratePerSec, burst, nowNs}, &o)
		return remoteLimiter{r, o}
	}
}

type remoteLimiter struct {
	r check.Remote
	o wire.Obj
}

func (x remoteLimiter) TryAcquire(nowNs uint64) (got bool) {
	x.r.Call(x.o, "TryAcquire", []any{nowNs}, &got)
	return got
}

// refNew is the reference solution: the benchmark's decisions must be its.
func refNew(rate, burst, now uint64) Limiter { return ref.New(rate, burst, now) }

// benchmark times the learner's loop beside the reference's, in r's
// process.
func benchmark(r check.Remote) check.Outcome {
	return check.Bench{
		BudgetNs: check.LimiterBudgetNs, Remote: r,
		Expected: func(n int) uint64 { return loop(refNew, n) },
	}.Run()
}

// loop is the benchmark: TryAcquire at 1,000,000 calls/s with a burst of
// 100, called on average twice as often as the rate allows, so about half
// the calls are refused.
func loop(newG New, n int) uint64 {
	g := newG(1_000_000, 100, 0)
	now, d := uint64(0), check.DigestStart
	for i := range n {
		now += benchSteps[i&(len(benchSteps)-1)]
		d = check.Digest(d, check.Bit(g.TryAcquire(now)))
	}
	return d
}

var benchSteps = check.Steps(4096, 1000)
