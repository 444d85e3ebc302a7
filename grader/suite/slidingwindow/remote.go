package slidingwindow

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
	"ratelab/grader/wire"
	ref "ratelab/solutions/slidingwindow"
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
	return func(limit uint32, windowNs uint64, buckets int) Window {
		var o wire.Obj
		r.Call(0, "New", []any{limit, windowNs, buckets}, &o)
		return remoteWindow{r, o}
	}
}

type remoteWindow struct {
	r check.Remote
	o wire.Obj
}

func (x remoteWindow) Count(nowNs uint64) (got uint32) {
	x.r.Call(x.o, "Count", []any{nowNs}, &got)
	return got
}

func (x remoteWindow) TryAcquire(nowNs uint64) (got bool) {
	x.r.Call(x.o, "TryAcquire", []any{nowNs}, &got)
	return got
}

// refNew is the reference solution: the benchmark's decisions must be its.
func refNew(limit uint32, windowNs uint64, buckets int) Window {
	return ref.New(limit, windowNs, buckets)
}

// benchmark times the learner's loop beside the reference's, in r's
// process.
func benchmark(r check.Remote) check.Outcome {
	return check.Bench{
		BudgetNs: check.LimiterBudgetNs, Remote: r,
		Expected: func(n int) uint64 { return loop(refNew, n) },
	}.Run()
}

// Bench figures: 1,024 buckets of 10 µs, a limit of 2,560 calls per
// window, calls on average every 2 µs (twice what the limit lets through),
// and an idle gap of two windows every 16,384 calls. About half the calls
// are refused.
const (
	benchBuckets  = 1024
	benchBucketNs = 10_000
	benchLimit    = 2560
)

// loop is the benchmark: TryAcquire on a window of 1,024 buckets, so that
// work that grows with the buckets shows.
func loop(newW New, n int) uint64 {
	w := newW(benchLimit, benchBuckets*benchBucketNs, benchBuckets)
	now, d := uint64(0), check.DigestStart
	for i := range n {
		now += benchSteps[i&(len(benchSteps)-1)]
		d = check.Digest(d, check.Bit(w.TryAcquire(now)))
	}
	return d
}

var benchSteps = func() []uint64 {
	s := check.Steps(1<<14, 4000)
	s[len(s)-1] += 2 * benchBuckets * benchBucketNs
	return s
}()
