package tokenbucket

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
	"ratelab/grader/wire"
	ref "ratelab/solutions/tokenbucket"
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
	return func(capacity, ratePerSec, nowNs uint64) Bucket {
		var o wire.Obj
		r.Call(0, "New", []any{capacity, ratePerSec, nowNs}, &o)
		return remoteBucket{r, o}
	}
}

type remoteBucket struct {
	r check.Remote
	o wire.Obj
}

func (x remoteBucket) TryAcquire(nowNs, n uint64) (got bool) {
	x.r.Call(x.o, "TryAcquire", []any{nowNs, n}, &got)
	return got
}

func (x remoteBucket) Available(nowNs uint64) (got uint64) {
	x.r.Call(x.o, "Available", []any{nowNs}, &got)
	return got
}

// refNew is the reference solution: the benchmark's decisions must be its.
func refNew(capacity, rate, now uint64) Bucket { return ref.New(capacity, rate, now) }

// benchmark times the learner's loop beside the reference's, in r's
// process.
func benchmark(r check.Remote) check.Outcome {
	return check.Bench{
		BudgetNs: check.LimiterBudgetNs, Remote: r,
		Expected: func(n int) uint64 { return loop(refNew, n) },
	}.Run()
}

// loop is the benchmark: TryAcquire at 1,000,000 tokens/s with a burst of
// 100, called on average twice as often as the rate allows, so about half
// the calls are refused.
func loop(newB New, n int) uint64 {
	tb := newB(100, 1_000_000, 0)
	now, d := uint64(0), check.DigestStart
	for i := range n {
		now += benchSteps[i&(len(benchSteps)-1)]
		d = check.Digest(d, check.Bit(tb.TryAcquire(now, 1)))
	}
	return d
}

var benchSteps = check.Steps(4096, 1000)
