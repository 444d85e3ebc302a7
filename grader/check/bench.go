package check

import (
	"fmt"
	"slices"
	"testing"

	"ratelab/grader/report"
)

// BenchFigures are the measured figures of a benchmark check.
type BenchFigures struct {
	NsPerOp     float64 // median over the runs
	AllocsPerOp float64 // the worst run
	BudgetNs    float64
	RefNsPerOp  float64 // the reference solution, measured in the same runs
}

// Bench measures an implementation against a time budget, beside the
// reference. Both loops must run b.N calls on state built before the loop,
// with every input precomputed, so that they measure the limiter alone.
type Bench struct {
	BudgetNs  float64
	Runs      int // alternating runs of each; the median is kept
	Learner   func(b *testing.B)
	Reference func(b *testing.B)
}

// Run measures both and passes if the learner's median is within the budget
// with no allocations. A panic in the learner's loop is an error outcome.
func (bn Bench) Run() Outcome {
	runs := max(bn.Runs, 1)
	var mine, ref []float64
	var allocs float64
	for range runs {
		r, p := Call(func() testing.BenchmarkResult { return testing.Benchmark(bn.Learner) })
		if p != nil {
			msg := fmt.Sprintf("the benchmark loop panicked: %v.", p.Value)
			if p.Stub() {
				msg = fmt.Sprintf("it is not implemented yet (the benchmark loop panicked: %v).", p.Value)
			}
			return Outcome{Status: report.Error, Message: msg}
		}
		if r.N == 0 {
			return Outcome{Status: report.Error, Message: "the benchmark did not run (did the code under test call runtime.Goexit or fail?)."}
		}
		mine = append(mine, float64(r.T.Nanoseconds())/float64(r.N))
		allocs = max(allocs, float64(r.AllocsPerOp())) // whole allocations per op, as go test -benchmem counts them
		if bn.Reference != nil {
			rr := testing.Benchmark(bn.Reference)
			if rr.N > 0 {
				ref = append(ref, float64(rr.T.Nanoseconds())/float64(rr.N))
			}
		}
	}
	f := &BenchFigures{NsPerOp: median(mine), AllocsPerOp: allocs, BudgetNs: bn.BudgetNs, RefNsPerOp: median(ref)}
	o := Outcome{Status: report.Passed, Bench: f}
	switch {
	case f.AllocsPerOp > 0 && f.NsPerOp > f.BudgetNs:
		o.Status = report.Failed
		o.Message = fmt.Sprintf("%.1f ns and %.2f allocations per call; the budget is %.0f ns and no allocations (the reference takes %.1f ns).", f.NsPerOp, f.AllocsPerOp, f.BudgetNs, f.RefNsPerOp)
	case f.AllocsPerOp > 0:
		o.Status = report.Failed
		o.Message = fmt.Sprintf("%.2f allocations per call; a limiter on the hot path must not allocate (%.1f ns per call is within the %.0f ns budget).", f.AllocsPerOp, f.NsPerOp, f.BudgetNs)
	case f.NsPerOp > f.BudgetNs:
		o.Status = report.Failed
		o.Message = fmt.Sprintf("%.1f ns per call, over the %.0f ns budget (the reference takes %.1f ns on this machine, in the same run).", f.NsPerOp, f.BudgetNs, f.RefNsPerOp)
	}
	return o
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
