package check

import (
	"cmp"
	"fmt"
	"math/rand"
	"time"

	"ratelab/grader/report"
)

// BenchFigures are the measured figures of a benchmark check.
type BenchFigures struct {
	NsPerOp     float64 // the fastest run
	AllocsPerOp float64 // the worst run
	BudgetNs    float64
	RefNsPerOp  float64 // the reference solution, measured in the same runs
}

// Bench measures an implementation's loop against a time budget, beside
// the reference's loop, both run by the Remote: loops "learner" and
// "reference". Each loop makes one call per iteration on state built
// before it, with every input precomputed, so that it measures the limiter
// alone, and returns a digest of its decisions.
//
// Expected returns the digest the reference's decisions give for n
// iterations, computed in the grader's own process: a loop whose digest
// differs does not do the work it is timed on (a limiter that does not
// limit), and earns nothing, however fast.
//
// The figure kept is the minimum over alternating runs of each, the
// estimator "Robust benchmarking in noisy environments" (Chen and Revels,
// 2016) recommends: noise from other processes only ever adds time. Runs
// are short and many, and they go on while the verdict is in doubt: at
// least MinRuns pairs, then until the fastest run is clearly within the
// budget (below 9/10 of it) or MaxRuns pairs were made. On a shared machine
// a whole stretch of runs can be slowed at once (by the neighbours of a
// virtual machine, which the guest's CPU time cannot see); a verdict near
// the budget waits for a clean stretch rather than judging one slow one.
// If even the reference's fastest run is over the budget, no clean stretch
// came: the check is not judged (skipped, no points, a message saying why)
// rather than blaming the code for the machine.
type Bench struct {
	BudgetNs float64
	Remote   Remote
	Expected func(n int) uint64
	// Target is the time one run should take; 0 means 10 ms.
	Target time.Duration
	// MinRuns and MaxRuns bound the alternating pairs; 0 means 5 and 60.
	MinRuns, MaxRuns int
}

// maxIterations bounds one run's iterations, so that calibration ends.
const maxIterations = 200_000_000

// Run measures both loops and passes if the learner's fastest run is within
// the budget with no allocations and the right decisions.
func (bn Bench) Run() Outcome {
	target := bn.Target
	if target == 0 {
		target = 10 * time.Millisecond
	}

	// Calibrate: grow n until one run of the learner's loop takes about
	// target.
	n := 1000
	var run BenchRun
	for {
		run = bn.Remote.Bench("learner", n)
		if run.Panic != nil {
			return benchPanic(run.Panic)
		}
		if run.Time >= target/2 || n >= maxIterations {
			break
		}
		grow := 10.0
		if run.Time > 0 {
			grow = min(10, max(2, float64(target)/float64(run.Time)))
		}
		n = min(maxIterations, int(float64(n)*grow))
	}
	if want := bn.Expected(n); run.Digest != want {
		return Outcome{Status: report.Failed, Message: fmt.Sprintf(
			"its decisions on the benchmark's traffic (%d calls) differ from the reference's, so its time says nothing about the work a limiter must do: a limiter that does not limit earns nothing here. Fix the checks above first.", n)}
	}
	minRuns, maxRuns := cmp.Or(bn.MinRuns, 5), cmp.Or(bn.MaxRuns, 60)
	f := &BenchFigures{BudgetNs: bn.BudgetNs, NsPerOp: perOp(run.Time, n), AllocsPerOp: float64(run.Allocs / uint64(n))}
	clock := run.Clock
	runs := 1
	for ; runs <= maxRuns && (runs <= minRuns || f.NsPerOp > 0.9*bn.BudgetNs && f.AllocsPerOp == 0); runs++ {
		mine := bn.Remote.Bench("learner", n)
		if mine.Panic != nil {
			return benchPanic(mine.Panic)
		}
		f.NsPerOp = min(f.NsPerOp, perOp(mine.Time, n))
		f.AllocsPerOp = max(f.AllocsPerOp, float64(mine.Allocs/uint64(n))) // whole allocations per op, as go test -benchmem counts them
		if ref := bn.Remote.Bench("reference", n); ref.Panic == nil {
			if f.RefNsPerOp == 0 {
				f.RefNsPerOp = perOp(ref.Time, n)
			}
			f.RefNsPerOp = min(f.RefNsPerOp, perOp(ref.Time, n))
		}
	}
	how := fmt.Sprintf("Fastest of %d runs of %d calls, %s.", runs, n, clock)
	o := Outcome{Status: report.Passed, Bench: f, Message: how}
	switch {
	case f.AllocsPerOp > 0 && f.NsPerOp > f.BudgetNs:
		o.Status = report.Failed
		o.Message = fmt.Sprintf("%.1f ns and %.0f allocations per call; the budget is %.0f ns and no allocations (the reference takes %.1f ns). %s", f.NsPerOp, f.AllocsPerOp, f.BudgetNs, f.RefNsPerOp, how)
	case f.AllocsPerOp > 0:
		o.Status = report.Failed
		o.Message = fmt.Sprintf("%.0f allocations per call; a limiter on the hot path must not allocate (%.1f ns per call is within the %.0f ns budget). %s", f.AllocsPerOp, f.NsPerOp, f.BudgetNs, how)
	case f.NsPerOp > f.BudgetNs && f.RefNsPerOp > f.BudgetNs:
		// The reference meets the budget on a machine fit to time it; over
		// it in the same runs, the machine was too busy (neighbours,
		// throttling) for the time to blame the code.
		o.Status = report.Skipped
		o.Message = fmt.Sprintf("Not judged: this machine was too busy to time it. The reference itself took %.1f ns per call in the same runs, over the %.0f ns budget it meets on a quiet machine (yours took %.1f ns). Grade again when the machine is quieter. %s", f.RefNsPerOp, f.BudgetNs, f.NsPerOp, how)
	case f.NsPerOp > f.BudgetNs:
		o.Status = report.Failed
		o.Message = fmt.Sprintf("%.1f ns per call, over the %.0f ns budget (the reference takes %.1f ns on this machine, in the same run). %s", f.NsPerOp, f.BudgetNs, f.RefNsPerOp, how)
	}
	return o
}

func perOp(d time.Duration, n int) float64 { return float64(d.Nanoseconds()) / float64(n) }

func benchPanic(p *Panic) Outcome {
	msg := fmt.Sprintf("the benchmark loop panicked: %v.", p.Value)
	if p.Stub() {
		msg = fmt.Sprintf("it is not implemented yet (the benchmark loop panicked: %v).", p.Value)
	}
	return Outcome{Status: report.Error, Message: msg}
}

// Digest folds one decision into a benchmark loop's running digest
// (FNV-1a over the decisions' bits).
func Digest(d uint64, decision uint64) uint64 {
	return (d ^ decision) * 1099511628211
}

// DigestStart is the digest of no decisions.
const DigestStart uint64 = 14695981039346656037

// Bit is a decision as a digest's input.
func Bit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// LimiterBudgetNs is the time budget of one limiter call (TryAcquire) in
// the week 1 and 2 exercises.
const LimiterBudgetNs = 40

// Steps draws a benchmark's traffic before its loop: n gaps between calls
// (n a power of two, so the loop indexes with a mask), each uniform in
// [0, maxGap] ns, from a fixed seed so that every run sees the same calls.
func Steps(n int, maxGap int) []uint64 {
	r := rand.New(rand.NewSource(1))
	steps := make([]uint64, n)
	for i := range steps {
		steps[i] = uint64(r.Intn(maxGap + 1))
	}
	return steps
}
