package check

import (
	"cmp"
	"slices"
	"strings"
	"testing"
	"time"

	"ratelab/grader/report"
	"ratelab/grader/wire"
)

// timedRemote answers Bench with fixed costs per call for each loop, a
// digest that matches fakeExpected and allocs allocations per call; Call
// is not used by Bench.
type timedRemote struct {
	learner, reference time.Duration
	allocs             func(n int) uint64
}

func (r timedRemote) Call(wire.Obj, string, []any, ...any) { panic("not used") }

func (r timedRemote) Bench(spec BenchSpec) BenchRun {
	per := r.learner
	if spec.Loop == "reference" {
		per = r.reference
	}
	run := BenchRun{Digest: fakeExpected(spec), Time: per * time.Duration(spec.N), Clock: "test clock"}
	if r.allocs != nil && spec.Loop == "learner" {
		run.Allocs = r.allocs(spec.N)
	}
	return run
}

// fakeExpected stands for the reference's digest of a run: it depends on
// the run's traffic (its seed) and length.
func fakeExpected(spec BenchSpec) uint64 { return spec.Seed ^ uint64(spec.N) }

func TestBenchVerdicts(t *testing.T) {
	for _, c := range []struct {
		name               string
		learner, reference time.Duration
		want               report.Status
		says               string
	}{
		{"within the budget", 20, 18, report.Passed, "Fastest of"},
		{"over it, the reference within", 60, 18, report.Failed, "over the 40 ns budget"},
		// A machine so busy that the reference is over the budget too
		// cannot blame the code.
		{"over it, the reference too", 170, 180, report.Skipped, "too busy"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Bench{BudgetNs: 40, Remote: timedRemote{learner: c.learner, reference: c.reference}, Expected: fakeExpected}.Run()
			if o.Status != c.want || !strings.Contains(o.Message, c.says) {
				t.Errorf("%s: %q; want %s saying %q", o.Status, o.Message, c.want, c.says)
			}
		})
	}
}

// TestBenchCountsAllocationsAsARate: allocations are judged per call as a
// rate, so one every second call, or every tenth, fails as surely as one
// every call (a whole count per call reads both as 0); one per thousand
// calls, amortised growth, passes, and so does a handful a run.
func TestBenchCountsAllocationsAsARate(t *testing.T) {
	for _, c := range []struct {
		name   string
		allocs func(n int) uint64
		want   report.Status
		rate   float64
	}{
		{"none", func(int) uint64 { return 0 }, report.Passed, 0},
		{"every call", func(n int) uint64 { return uint64(n) }, report.Failed, 1},
		{"every second call", func(n int) uint64 { return uint64(n / 2) }, report.Failed, 0.5},
		{"every tenth call", func(n int) uint64 { return uint64(n / 10) }, report.Failed, 0.1},
		// Amortised growth is allowed: a structure that grows as the
		// traffic needs allocates far less often than once per 100 calls.
		{"every thousandth call", func(n int) uint64 { return uint64(n / 1000) }, report.Passed, 0.001},
		{"a handful a run", func(int) uint64 { return 3 }, report.Passed, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Bench{BudgetNs: 40, Remote: timedRemote{learner: 20, reference: 18, allocs: c.allocs}, Expected: fakeExpected}.Run()
			if o.Status != c.want {
				t.Errorf("%s: %q; want %s", o.Status, o.Message, c.want)
			}
			if o.Bench == nil {
				t.Fatalf("no figures: %+v", o)
			}
			if got := o.Bench.AllocsPerOp; c.rate >= 0 && (got < c.rate*0.99 || got > c.rate*1.01) {
				t.Errorf("allocations per call %v, want %v", got, c.rate)
			}
			if c.want == report.Failed && !strings.Contains(o.Message, "allocations") {
				t.Errorf("message %q does not say it allocates", o.Message)
			}
		})
	}
}

// seedRemote is a Remote that records the runs it is asked for, and
// answers each with the reference's digest of the run it last made for
// the same length, as a loop that records its answers and replays them
// would.
type seedRemote struct {
	specs  *[]BenchSpec
	replay bool
	memo   map[int]uint64
}

func (r seedRemote) Call(wire.Obj, string, []any, ...any) { panic("not used") }

func (r seedRemote) Bench(spec BenchSpec) BenchRun {
	*r.specs = append(*r.specs, spec)
	d := fakeExpected(spec)
	if r.replay && spec.Loop == "learner" {
		if old, ok := r.memo[spec.N]; ok {
			d = old
		}
		r.memo[spec.N] = d
	}
	return BenchRun{Digest: d, Time: 20 * time.Duration(spec.N), Clock: "test clock"}
}

// TestBenchDrawsEveryRunAfresh: every run of the learner's loop has
// traffic of its own, the reference's run has the learner's run's, and
// the same grading seed gives the same runs; the counted run is made
// once (its seed is one no timed run has).
func TestBenchDrawsEveryRunAfresh(t *testing.T) {
	runs := func(seed int64) []BenchSpec {
		var specs []BenchSpec
		if o := (Bench{BudgetNs: 40, Remote: seedRemote{specs: &specs}, Expected: fakeExpected, Seed: seed}).Run(); o.Status != report.Passed {
			t.Fatalf("%s %q, want passed", o.Status, o.Message)
		}
		return specs
	}
	specs := runs(7)
	seen := map[uint64]bool{}
	for i, s := range specs {
		if s.Loop == "reference" {
			if prev := specs[i-1]; prev.Loop != "learner" || prev.Seed != s.Seed || prev.N != s.N {
				t.Errorf("reference run %+v after %+v: want the learner's run's traffic", s, prev)
			}
			continue
		}
		if seen[s.Seed] {
			t.Errorf("learner run %d replays seed %d", i, s.Seed)
		}
		seen[s.Seed] = true
		if s == countedRun(7, 20) {
			continue // the one run whose allocations are counted
		}
		if s.Warm != Warmup(s.N) {
			t.Errorf("run %+v: warm-up %d, want %d", s, s.Warm, Warmup(s.N))
		}
	}
	if n := slices.Index(specs, countedRun(7, 20)); n < 0 || slices.Index(specs[n+1:], specs[n]) >= 0 {
		t.Errorf("runs %+v: want the counted run %+v once", specs, countedRun(7, 20))
	}
	if len(seen) < 6 {
		t.Errorf("%d learner runs, want at least 6", len(seen))
	}
	again, other := runs(7), runs(8)
	for i := range specs {
		if i < len(again) && again[i].Seed != specs[i].Seed {
			t.Errorf("run %d: seed %d, then %d with the same grading seed", i, specs[i].Seed, again[i].Seed)
		}
		if i < len(other) && other[i].Seed == specs[i].Seed {
			t.Errorf("run %d: seed %d with grading seeds 7 and 8", i, specs[i].Seed)
		}
	}
}

// TestBenchChecksEveryRun: a loop that decides the first run of each
// length rightly and replays those answers after is caught on the run it
// first replays, whatever its time.
func TestBenchChecksEveryRun(t *testing.T) {
	var specs []BenchSpec
	o := Bench{BudgetNs: 40, Remote: seedRemote{specs: &specs, replay: true, memo: map[int]uint64{}}, Expected: fakeExpected}.Run()
	if o.Status != report.Failed || !strings.Contains(o.Message, "differ from the reference") || !strings.Contains(o.Message, "played back") {
		t.Errorf("%s %q; want failed, its decisions differing from the reference's on a later run", o.Status, o.Message)
	}
}

// countingRemote is timedRemote counting the learner's runs.
type countingRemote struct {
	timedRemote
	runs *int
}

func (r countingRemote) Bench(spec BenchSpec) BenchRun {
	if spec.Loop == "learner" {
		*r.runs++
	}
	return r.timedRemote.Bench(spec)
}

// TestBenchRunsOnWhileInDoubt: runs go on to MaxRuns while the fastest is
// near the budget, and stop after MinRuns when it is clearly within it or
// clearly over it (over twice the budget, the reference within).
func TestBenchRunsOnWhileInDoubt(t *testing.T) {
	for _, c := range []struct {
		name     string
		learner  time.Duration
		min, max int // the learner's runs, calibration included
	}{{"clearly within", 20, 6, 10}, {"near", 42, 61, 70}, {"clearly over", 100, 6, 10}} {
		t.Run(c.name, func(t *testing.T) {
			runs := 0
			r := countingRemote{timedRemote{learner: c.learner, reference: 18}, &runs}
			Bench{BudgetNs: 40, Remote: r, Expected: fakeExpected}.Run()
			if runs < c.min || runs > c.max {
				t.Errorf("%d runs of the learner's loop, want %d to %d", runs, c.min, c.max)
			}
		})
	}
}

// TestTrafficWarmUpShowsNoneOfTheTimedCalls: a run's timed calls are its
// warm-up's in another order (the same mix, so the code's tables grow to
// what the timed calls need), both the same for the same seed: nothing
// learnt in the untimed warm-up tells the code the order of the calls it
// is timed on.
func TestTrafficWarmUpShowsNoneOfTheTimedCalls(t *testing.T) {
	mk := func(gap, x uint64) [2]uint64 { return [2]uint64{gap, x} }
	a, b := Traffic(9, 4096, 1000, mk), Traffic(9, 4096, 1000, mk)
	if !slices.Equal(a.Warm, b.Warm) || !slices.Equal(a.Timed, b.Timed) {
		t.Error("two draws from seed 9 differ")
	}
	in := 0
	for i := range a.Timed {
		if a.Timed[i] == a.Warm[i] {
			in++
		}
	}
	if in > 10 {
		t.Errorf("%d of 4096 timed calls are where the warm-up had them", in)
	}
	less := func(x, y [2]uint64) int { return cmp.Compare(x[1], y[1]) }
	if !slices.Equal(slices.SortedFunc(slices.Values(a.Warm), less), slices.SortedFunc(slices.Values(a.Timed), less)) {
		t.Error("the timed calls are not the warm-up's calls")
	}
	if !slices.Equal(a.Next(), a.Warm) || !slices.Equal(a.Next(), a.Timed) || !slices.Equal(a.Next(), a.Timed) {
		t.Error("Next: want the warm-up's table first, then the timed one")
	}
	if other := Traffic(10, 4096, 1000, mk); slices.Equal(other.Warm, a.Warm) {
		t.Error("seeds 9 and 10 draw the same warm-up")
	}
}

// An allocation rate just over MaxAllocsPerOp never reads as the rate it
// allows (see report.Figure).
func TestBenchRateTextKeepsItsSideOfTheLimit(t *testing.T) {
	for _, c := range []struct {
		rate float64
		want string
	}{
		{201.0 / AllocCalls, "0.01005 allocations per call (one every 99.5 calls)"},
		{0.25, "0.25 allocations per call (one every 4 calls)"},
		{0.72, "0.72 allocations per call"},
	} {
		if got := rateText(c.rate); got != c.want {
			t.Errorf("rateText(%v) = %q, want %q", c.rate, got, c.want)
		}
	}
}
