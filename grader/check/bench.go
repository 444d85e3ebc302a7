package check

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"ratelab/grader/report"
)

// BenchFigures are the measured figures of a benchmark check.
type BenchFigures struct {
	NsPerOp     float64 // the fastest run
	AllocsPerOp float64 // heap allocations per call, on the counted run (see Bench)
	BudgetNs    float64
	RefNsPerOp  float64 // the reference solution, measured in the same runs
	// Sites are where the learner's loop allocates, when it allocates over
	// MaxAllocsPerOp and the Remote is a Profiler (see AllocSites).
	Sites []report.AllocSite
}

// BenchLoop is a benchmark's loop on one implementation impl. Given a run's
// seed, it builds the state the run works on (e.g. a limiter and its
// sessions) and draws the run's traffic from the seed, and returns the run:
// each call of it makes the next n iterations, going on from where the
// call before stopped, and returns the digest of their decisions (see
// Digest). The grader warms a run up with one call and measures the next.
type BenchLoop[I any] func(impl I, seed uint64) (run func(n int) uint64)

// Expect returns the digest loop gives on impl, in this process, for the
// run spec says (its seed, warm-up and measured iterations): what the
// reference's decisions on that run's traffic are.
func Expect[I any](loop BenchLoop[I], impl I, spec BenchSpec) uint64 {
	run := loop(impl, spec.Seed)
	if spec.Warm > 0 {
		run(spec.Warm)
	}
	return run(spec.N)
}

// Bench measures an implementation's loop against a time budget, beside
// the reference's loop, both run by the Remote: loops "learner" and
// "reference". Each loop makes one call per iteration on state built
// before it, with every input precomputed, so that it measures the limiter
// alone, and returns a digest of its decisions.
//
// Every run has traffic of its own: the seed of run k is RunSeed(Seed, k),
// so that no run replays another's calls (a limiter that records its
// answers on one run and plays them back on the next answers the next one
// wrongly), while the same grading seed gives the same runs. Expected
// returns the digest the reference's decisions give on a run, computed in
// the grader's own process; every run of the learner's loop is checked
// against it: a loop whose digest differs does not do the work it is timed
// on (a limiter that does not limit, or that replays), and earns nothing,
// however fast.
//
// The figure kept is the minimum over alternating runs of each, the
// estimator "Robust benchmarking in noisy environments" (Chen and Revels,
// 2016) recommends: noise from other processes only ever adds time. Runs
// are short and many, and they go on while the verdict is in doubt: at
// least MinRuns pairs, then until the fastest run is clearly within the
// budget (below 9/10 of it) or clearly over it (over twice it while the
// reference's was within it), or MaxRuns pairs were made. On a shared
// machine a whole stretch of runs can be slowed at once (by the neighbours
// of a virtual machine, which the guest's CPU time cannot see); a verdict
// near the budget waits for a clean stretch rather than judging one slow
// one. If even the reference's fastest run is over the budget, no clean
// stretch came: the check is skipped (no points, a message saying why)
// rather than blaming the code for the machine.
//
// Allocations are counted on a run of their own, the counted run, whose
// length the machine's speed does not set (see countedRun): after the
// calibration, the learner's loop is warmed up with AllocWarm calls and
// its allocations over the next AllocCalls are counted and divided by
// their number: a rate, not a whole count per call. The same code and seed
// make the same count on any machine, so the verdict on allocations, and
// the lines it names, do not depend on how fast the machine is (a timed
// run's length does: slow code on a fast machine would be warmed up
// longer). The check passes when the rate is at most MaxAllocsPerOp (see
// there for why that is not 0: amortised growth is allowed). When it is
// over, and the Remote is a Profiler, the counted run is made once more
// with its allocations recorded, to find the lines of the learner's code
// that allocate (see AllocSites), which the message names.
type Bench struct {
	BudgetNs float64
	Remote   Remote
	Expected func(spec BenchSpec) uint64
	// Seed is the grading's seed, from which each run's traffic seed is
	// drawn (see RunSeed).
	Seed int64
	// Target is the time one run should take; 0 means 5 ms.
	Target time.Duration
	// MinRuns and MaxRuns bound the alternating pairs; 0 means 5 and 60.
	MinRuns, MaxRuns int
}

// maxIterations bounds one run's iterations, so that calibration ends.
const maxIterations = 200_000_000

// MaxAllocsPerOp is the most heap allocations per call a benchmark check
// lets through: one per 100 calls, counted on the counted run, after its
// warm-up (see Bench). The budget is no allocation in steady
// state, and amortised growth is allowed: a structure that grows as the
// traffic needs (a map, a slice or a ring that doubles when full, a log
// kept in chunks) allocates far less often than once per 100 calls, and
// mostly in the warm-up; so does a map reorganising itself now and then.
// Code that allocates on its calls (a record per call, an allocation every
// second call, a queue's slice made anew every few calls) is over it, and
// fails. The gap between the two is wide (the references measure 0 to
// 1/30,000, correct fixtures up to 1/4,000, code that allocates as it goes
// 1/4 and more), so no verdict hangs on the count's last digit.
const MaxAllocsPerOp = report.MaxAllocsPerOp

// Warmup is how many iterations a run of n measured iterations is warmed
// up with: n, at most 65,536: enough for every table the benchmarks'
// traffic fills to reach its size in a run timed near its budget, and no
// more than the run itself for slow code, which the time fails anyway.
func Warmup(n int) int { return min(n, AllocWarm) }

// RunSeed is the traffic seed of run k (1, 2, ...) of a benchmark check
// graded with seed: a different seed for every run (SplitMix64's
// finaliser over both).
func RunSeed(seed int64, k int) uint64 {
	z := uint64(seed)*0x9e3779b97f4a7c15 + uint64(k)*0xbf58476d1ce4e5b9
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Run measures both loops and passes if the learner's fastest run is within
// the budget, its allocations within MaxAllocsPerOp, and every run's
// decisions the reference's.
func (bn Bench) Run() Outcome {
	target := cmp.Or(bn.Target, 5*time.Millisecond)
	minRuns, maxRuns := cmp.Or(bn.MinRuns, 5), cmp.Or(bn.MaxRuns, 60)

	made := 0 // runs of the learner's loop so far
	try := func(spec BenchSpec) (BenchRun, *Outcome) {
		made++
		run := bn.Remote.Bench(spec)
		if run.Panic != nil {
			o := benchPanic(run.Panic)
			return run, &o
		}
		if run.Digest != bn.Expected(spec) {
			o := Outcome{Status: report.Failed, Message: differs(made, spec.N)}
			return run, &o
		}
		return run, nil
	}
	var spec BenchSpec
	learner := func(n int) (BenchRun, *Outcome) {
		spec = BenchSpec{Loop: "learner", Seed: RunSeed(bn.Seed, made+1), Warm: Warmup(n), N: n}
		return try(spec)
	}

	// Calibrate: grow n until one run of the learner's loop takes about
	// target.
	n := 1000
	var run BenchRun
	for {
		r, bad := learner(n)
		if bad != nil {
			return *bad
		}
		run = r
		if run.Time >= target/2 || n >= maxIterations {
			break
		}
		grow := 10.0
		if run.Time > 0 {
			grow = min(10, max(2, float64(target)/float64(run.Time)))
		}
		n = min(maxIterations, int(float64(n)*grow))
	}
	f := &BenchFigures{BudgetNs: bn.BudgetNs, NsPerOp: perOp(run.Time, n)}

	counted := countedRun(bn.Seed, f.NsPerOp)
	crun, bad := try(counted)
	if bad != nil {
		return *bad
	}
	f.AllocsPerOp = float64(crun.Allocs) / float64(counted.N)
	allocates := f.AllocsPerOp > MaxAllocsPerOp

	clock := run.Clock
	runs := 1
	for ; runs <= maxRuns && (runs <= minRuns || bn.doubt(f)); runs++ {
		mine, bad := learner(n)
		if bad != nil {
			return *bad
		}
		f.NsPerOp = min(f.NsPerOp, perOp(mine.Time, n))
		// The reference runs on the traffic the learner's run just had.
		if ref := bn.Remote.Bench(BenchSpec{Loop: "reference", Seed: spec.Seed, Warm: spec.Warm, N: n}); ref.Panic == nil {
			if f.RefNsPerOp == 0 {
				f.RefNsPerOp = perOp(ref.Time, n)
			}
			f.RefNsPerOp = min(f.RefNsPerOp, perOp(ref.Time, n))
		}
	}
	how := fmt.Sprintf("Fastest of %d runs of %d calls, %s; %s in %d calls after a warm-up of %d, counted on a run of their own.", runs, n, clock, allocText(crun.Allocs), counted.N, counted.Warm)
	o := Outcome{Status: report.Passed, Bench: f, Message: how}
	if p, ok := bn.Remote.(Profiler); ok && allocates {
		// The counted run once more, with its allocations recorded (see
		// profileCalls).
		ps := counted
		ps.N = profileCalls(f.AllocsPerOp, counted.N)
		f.Sites = AllocSites(p.Profile(ps), ps.N)
	}
	switch {
	case allocates && f.NsPerOp > f.BudgetNs:
		o.Status = report.Failed
		o.Message = fmt.Sprintf("%s ns and %s%s; the budget is %.0f ns and no allocation in steady state, at most one per 100 calls (the reference takes %.1f ns). %s", report.Figure(f.NsPerOp, f.BudgetNs, 'f', 1), rateText(f.AllocsPerOp), sitesText(f.Sites), f.BudgetNs, f.RefNsPerOp, how)
	case allocates:
		o.Status = report.Failed
		o.Message = fmt.Sprintf("%s%s; a limiter on the hot path must not allocate once it has warmed up: at most one allocation per 100 calls, room for a structure that grows as the traffic needs, not for allocating as it goes (%s ns per call is within the %.0f ns budget). %s", rateText(f.AllocsPerOp), sitesText(f.Sites), report.Figure(f.NsPerOp, f.BudgetNs, 'f', 1), f.BudgetNs, how)
	case f.NsPerOp > f.BudgetNs && f.RefNsPerOp > f.BudgetNs:
		// The reference meets the budget on a machine fit to time it; over
		// it in the same runs, the machine was too busy (neighbours,
		// throttling) for the time to blame the code.
		o.Status = report.Skipped
		o.Message = fmt.Sprintf("Not timed: this machine was too busy. The reference itself took %s ns per call in the same runs, over the %.0f ns budget it meets on a quiet machine (yours took %.1f ns). Grade again when the machine is quieter. %s", report.Figure(f.RefNsPerOp, f.BudgetNs, 'f', 1), f.BudgetNs, f.NsPerOp, how)
	case f.NsPerOp > f.BudgetNs:
		o.Status = report.Failed
		o.Message = fmt.Sprintf("%s ns per call, over the %.0f ns budget (the reference takes %.1f ns on this machine, in the same run). %s", report.Figure(f.NsPerOp, f.BudgetNs, 'f', 1), f.BudgetNs, f.RefNsPerOp, how)
	}
	return o
}

// doubt reports whether the verdict on figures f is in doubt, so that more
// runs are worth making: the fastest run is not clearly within the budget
// (below 9/10 of it), yet it allocates within MaxAllocsPerOp, and it is
// not over twice the budget while the reference, in the same runs, was
// within it (no quieter stretch turns that into a pass).
func (bn Bench) doubt(f *BenchFigures) bool {
	if f.AllocsPerOp > MaxAllocsPerOp || f.NsPerOp <= 0.9*bn.BudgetNs {
		return false
	}
	return f.NsPerOp <= 2*bn.BudgetNs || f.RefNsPerOp == 0 || f.RefNsPerOp > bn.BudgetNs
}

// differs is the message of a run whose decisions are not the reference's.
func differs(run, n int) string {
	if run == 1 {
		return fmt.Sprintf("its decisions on the benchmark's traffic (%d calls) differ from the reference's, so its time says nothing about the work a limiter must do: a limiter that does not limit earns nothing here. Fix the checks above first.", n)
	}
	return fmt.Sprintf("its decisions on run %d of the benchmark (%d calls, on traffic drawn afresh for that run) differ from the reference's on the same traffic, though earlier runs agreed: every run has calls of its own, and answers recorded on one run and played back on another are wrong. A limiter that does not decide each call as it comes earns nothing here.", run, n)
}

// allocText says how many allocations were counted.
func allocText(allocs uint64) string {
	if allocs == 1 {
		return "1 allocation"
	}
	return fmt.Sprintf("%d allocations", allocs)
}

// rateText says an allocation rate in words a learner reads at a glance:
// "1.00 allocations per call", "0.72 allocations per call", "0.5
// allocations per call (one every 2 calls)". A rate just over
// MaxAllocsPerOp never reads as it: 201 allocations in 20,000 calls are
// "0.01005 allocations per call (one every 99.5 calls)", not "0.01 (one
// every 100 calls)", which the limit allows.
func rateText(rate float64) string {
	if rate > 0.5 {
		return fmt.Sprintf("%.2f allocations per call", rate)
	}
	return fmt.Sprintf("%s allocations per call (one every %s calls)", report.Figure(rate, MaxAllocsPerOp, 'g', 2), report.Figure(1/rate, 1/MaxAllocsPerOp, 'f', 0))
}

// AllocWarm and AllocCalls are the counted run's warm-up and counted
// calls (see Bench): a warm-up as long as the longest a timed run has (see
// Warmup), enough for every table the benchmarks' traffic fills to reach
// its size, and 20,000 calls, 200 allocations at MaxAllocsPerOp, which
// tell a structure that grows now and then from code that allocates as
// it goes.
const (
	AllocWarm  = 1 << 16
	AllocCalls = 20_000
)

// allocTime bounds the counted run of a very slow loop (see countedRun),
// within the CPU the grader gives a run.
const allocTime = 3 * time.Second

// countedRun is the run whose allocations a benchmark check graded with
// seed counts, for a loop that takes nsPerOp a call: the learner's loop,
// on a traffic seed of its own (RunSeed's run 0, which no timed run has),
// AllocWarm calls of warm-up and AllocCalls counted. Only a loop so slow
// that the run would take over allocTime (over 35 µs a call, hundreds of
// times any budget) is given a shorter one, both parts shrunk alike, at
// least 10 calls counted: the one case where the machine's speed sets it.
func countedRun(seed int64, nsPerOp float64) BenchSpec {
	warm, calls := AllocWarm, AllocCalls
	if total := nsPerOp * float64(warm+calls); total > float64(allocTime) {
		shrink := float64(allocTime) / total
		warm, calls = int(float64(warm)*shrink), max(10, int(float64(calls)*shrink))
	}
	return BenchSpec{Loop: "learner", Seed: RunSeed(seed, 0), Warm: warm, N: calls}
}

// profileCalls is how many of the counted run's calls (n) its profiled
// run makes, for a loop that allocates rate times a call: about 20,000
// allocations' worth, all n for a loop that allocates once a call or
// less, fewer for one that allocates more (rounded to a whole number
// first, so that the odd allocation of a growing table, 1.0001 a call,
// changes nothing), at least 10. Every allocation recorded costs a walk of
// its stack, some microseconds (a loop making 2,000 a call, through
// math/big, took 5 µs each: 10 s of CPU for 1,000 calls); 20,000 tell the
// lines that allocate apart, down to once per 1,000 calls.
func profileCalls(rate float64, n int) int {
	return min(n, max(10, int(20_000/max(1, math.Round(rate)))))
}

// MaxAllocSites bounds the sites a check reports.
const MaxAllocSites = 5

// AllocSites turns a profiled run's records of n calls into the sites a
// check reports: the records of one line and one kind of allocation (see
// AllocKind; a new object on a line a function literal starts on is a
// "closure") together, as allocations per call, those of at least one
// per 1,000 calls (a tenth of MaxAllocsPerOp: below it a line is no cause
// of a failed budget), the most per call first, at most MaxAllocSites.
// The records come from the process that runs the learner's code: they
// are advice, and a malformed one is left out, never trusted further than
// its own line.
func AllocSites(records []AllocRecord, n int) []report.AllocSite {
	if n <= 0 {
		return nil
	}
	type key struct {
		file string
		line int
		kind string
	}
	counts := map[key]float64{} // not to wrap round, whatever the counts
	for _, r := range records {
		if r.File == "" || r.Line <= 0 || r.Count == 0 {
			continue
		}
		kind := AllocKind(r.Callee)
		if kind == "new object" && r.FuncLit {
			kind = "closure"
		}
		counts[key{r.File, r.Line, kind}] += float64(r.Count)
	}
	var out []report.AllocSite
	for k, c := range counts {
		if per := c / float64(n); per >= MaxAllocsPerOp/10 {
			out = append(out, report.AllocSite{File: k.file, Line: k.line, PerCall: per, Kind: k.kind})
		}
	}
	slices.SortFunc(out, func(a, b report.AllocSite) int {
		return cmp.Or(cmp.Compare(b.PerCall, a.PerCall), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Kind, b.Kind))
	})
	return out[:min(len(out), MaxAllocSites)]
}

// allocKinds names what allocated by the runtime function a learner's
// line called that made the allocation.
var allocKinds = map[string]string{
	"runtime.growslice":         "append",
	"runtime.makeslice":         "make",
	"runtime.makeslicecopy":     "make",
	"runtime.makemap":           "map",
	"runtime.makemap64":         "map",
	"runtime.makemap_small":     "map",
	"runtime.newobject":         "new object",
	"runtime.newarray":          "new object",
	"runtime.concatstrings":     "string concatenation",
	"runtime.concatbytes":       "string concatenation",
	"runtime.slicebytetostring": "string conversion",
	"runtime.slicerunetostring": "string conversion",
	"runtime.stringtoslicebyte": "string conversion",
	"runtime.stringtoslicerune": "string conversion",
	"runtime.intstring":         "string conversion",
	"runtime.makechan":          "channel",
	"runtime.newproc":           "goroutine",
}

// AllocKind is the kind of allocation a learner's line made, from the
// function it called that made it (callee, as runtime.Frame names it):
// "append" (runtime.growslice), "make", "map" (making one, or an
// assignment that grew it), "new object" (&T{}, new(T), a variable or a
// closure that outlives the call: AllocSites tells closures apart),
// "interface conversion" (a value stored in an interface), "string
// concatenation", "string conversion", "channel" or "goroutine". It is ""
// for any other callee (the line called a function, fmt.Sprint say, that
// allocated inside), and for none.
func AllocKind(callee string) string {
	if k, ok := allocKinds[callee]; ok {
		return k
	}
	switch {
	case strings.HasPrefix(callee, "runtime.mapassign"):
		return "map"
	case strings.HasPrefix(callee, "runtime.convT"):
		return "interface conversion"
	case strings.HasPrefix(callee, "runtime.concatstring"), strings.HasPrefix(callee, "runtime.concatbyte"):
		return "string concatenation"
	}
	return ""
}

// sitesText names the sites after the rate they are part of: ", 0.70 of
// them at fairqueue.go:41 (append) and 0.02 at fairqueue.go:57 (new
// object)"; nothing if there are none.
func sitesText(sites []report.AllocSite) string {
	if len(sites) == 0 {
		return ""
	}
	var b strings.Builder
	for i, s := range sites {
		switch {
		case i == 0:
			b.WriteString(", ")
		case i == len(sites)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(perCallText(s.PerCall))
		if i == 0 {
			b.WriteString(" of them")
		}
		fmt.Fprintf(&b, " at %s:%d", s.File, s.Line)
		if s.Kind != "" {
			b.WriteString(" (" + s.Kind + ")")
		}
	}
	return b.String()
}

// perCallText writes a site's allocations per call: "1.00", "0.70",
// "0.0012".
func perCallText(v float64) string {
	if v >= 0.01 {
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.2g", v)
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

// Tables are a benchmark run's traffic: the calls of the run's first call
// (its warm-up), and those of every call after it (the measured ones), the
// same calls in another order, shuffled from the run's seed. So the timed
// calls have the warm-up's mix (the same sessions as often, the same gaps:
// what the code's tables grow to in the warm-up is what the timed calls
// need), but not its order: code that learnt the warm-up's calls (a table
// repeats) and worked out its answers to the timed ones ahead, untimed,
// would answer calls that never come.
type Tables[T any] struct {
	Warm, Timed []T
	calls       int
}

// Next returns the table of the run's next call: Warm for its first, Timed
// for the others.
func (t *Tables[T]) Next() []T {
	t.calls++
	if t.calls == 1 {
		return t.Warm
	}
	return t.Timed
}

// Traffic draws a benchmark run's traffic from the run's seed: two tables
// (see Tables) of n calls (n a power of two, so that a loop indexes them
// with a mask), each made by mk from its gap, uniform in [0, maxGap] ns,
// and a uniform 64-bit value for the rest of the call (a session, a kind,
// whether it fails).
func Traffic[T any](seed uint64, n, maxGap int, mk func(gap, x uint64) T) *Tables[T] {
	warm := draw(seed, 1, n, maxGap, mk)
	timed := slices.Clone(warm)
	rand.New(rand.NewPCG(seed, 2)).Shuffle(n, func(i, j int) { timed[i], timed[j] = timed[j], timed[i] })
	return &Tables[T]{Warm: warm, Timed: timed}
}

// Gaps is Traffic with the gaps alone.
func Gaps(seed uint64, n, maxGap int) *Tables[uint64] {
	return Traffic(seed, n, maxGap, func(gap, _ uint64) uint64 { return gap })
}

// draw draws one table of Traffic, on the given stream of seed's
// generator.
func draw[T any](seed, stream uint64, n, maxGap int, mk func(gap, x uint64) T) []T {
	r := rand.New(rand.NewPCG(seed, stream))
	out := make([]T, n)
	for i := range out {
		gap := r.Uint64N(uint64(maxGap) + 1)
		out[i] = mk(gap, r.Uint64())
	}
	return out
}

// Stepped is the run of a limiter benchmark (tokenbucket, gcra,
// slidingwindow): calls of try, each at a time steps[i mod len(steps)]
// after the one before, steps the table of the run's call (see Tables),
// the clock starting from 0 and going on from where the last call of the
// run left it; each call of the run folds its n decisions into a digest.
func Stepped(steps *Tables[uint64], try func(nowNs uint64) bool) func(n int) uint64 {
	now := uint64(0)
	return func(n int) uint64 {
		gaps := steps.Next()
		t, mask, d := now, len(gaps)-1, DigestStart
		for i := range n {
			t += gaps[i&mask]
			d = Digest(d, Bit(try(t)))
		}
		now = t
		return d
	}
}
