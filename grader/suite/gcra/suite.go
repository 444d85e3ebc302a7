package gcra

import (
	"math"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// Limiter is the GCRA API every implementation offers.
type Limiter interface {
	TryAcquire(nowNs uint64) bool
}

// New builds a limiter: gcra.New, adapted to return the interface.
type New func(ratePerSec, burst, nowNs uint64) Limiter

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(impl).Runs(why) }
	return check.Suite{
		Exercise:   "gcra",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "gcra/exactness", Title: "Decides every call as the token bucket would", Kind: report.Property, Pitfall: "exactness", Points: 5,
				Hint: "Replay the counterexample on paper with the token bucket: it starts with burst tokens, earns one every 10^9/ratePerSec ns up to burst, and each call takes one if there is one. A GCRA's TAT is when that bucket would next be full; a call conforms when TAT−now ≤ (burst−1)×T.",
				Run:  prop(exactDomain, "A GCRA must decide every call as the token bucket New(burst, ratePerSec, nowNs) does with n = 1: burst calls at once, then one more every 10^9/ratePerSec ns. Here the rate divides a second, so one interval is a whole number of nanoseconds, and time only moves forward."),
			},
			{
				ID: "gcra/new-arguments", Title: "Refuses out-of-range New arguments with a panic naming them (exactness)", Kind: report.Case, Pitfall: "exactness", Points: 2,
				Hint: "Check both arguments at the top of New, before any division: ratePerSec in [1, 10^9], burst in [1, 10^6]; panic with a message that says which one is wrong and what it was.",
				Run:  func(int64) check.Outcome { return newArguments(impl) },
			},
			{
				ID: "gcra/rounding", Title: "Agrees with the token bucket at rates that do not divide a second", Kind: report.Property, Pitfall: "rounding", Points: 5,
				Hint: "Count time in units finer than a nanosecond so that one interval is exact: in ticks of 1/ratePerSec ns, an interval is exactly 10^9 ticks and nowNs is nowNs×ratePerSec ticks. Keep the schedule in ticks (relative to the latest time, or as a 128-bit number), or keep the remainder 10^9 mod ratePerSec alongside whole nanoseconds.",
				Run:  prop(roundingDomain, "Here ratePerSec does not divide 10^9, so one interval T = 10^9/ratePerSec ns is not a whole number of nanoseconds. A schedule that rounds T drifts away from the token bucket: rounded down it lets calls in a little early, rounded up it turns them away a little late, and the error grows with every call."),
			},
			{
				ID: "gcra/backward-time", Title: "Ignores a clock that steps back", Kind: report.Property, Pitfall: "backward-time", Points: 5,
				Hint: "Replace nowNs by max(nowNs, latest time seen) before anything else, and remember that latest time. max(TAT, now) alone is not enough: with an earlier now, TAT−now grows by the step back.",
				Run:  prop(backwardDomain, "The clock stepped back in this sequence. A time earlier than the latest one seen counts as that latest time, so the bucket neither earns nor loses anything: measuring TAT−now from the earlier time refuses a call the bucket grants, and letting now−latest wrap around grants one it refuses."),
			},
			{
				ID: "gcra/overflow", Title: "Stays exact next to MaxUint64 and after years of idle", Kind: report.Property, Pitfall: "overflow", Points: 5,
				Hint: "The schedule is never more than burst intervals ahead of the latest time: keep it relative to that time (TAT−latest fits easily), or do the arithmetic in 128 bits (math/bits). After an idle longer than burst intervals the schedule is simply forgotten, so compare the idle time with that before multiplying it by anything.",
				Run:  prop(overflowDomain, "The values here are at the edges: times next to MaxUint64, idle periods of years, ratePerSec up to 10^9 and burst up to 10^6. TAT+T must not pass MaxUint64, and now×rate or elapsed×rate must not wrap around to a small number."),
			},
			{
				ID: "gcra/budget", Title: "TryAcquire within 40 ns and without allocating", Kind: report.Benchmark, Pitfall: "budget", Points: 3,
				Hint: "One comparison and one addition per call is all a GCRA needs: no loops, no math/big, no allocation, no clock reads, no division on the hot path.",
				Run:  func(int64) check.Outcome { return benchmark(r) },
			},
		},
	}
}

// notStarted reports whether impl is the untouched stub.
func notStarted(impl New) bool {
	g, p := check.Call(func() Limiter { return impl(1, 1, 0) })
	if p != nil {
		return p.Stub()
	}
	_, p = check.Call(func() bool { return g.TryAcquire(0) })
	return p.Stub()
}

// argCases call New with arguments at both ends of the range and just
// outside it.
var argCases = []check.ArgCase[setup]{
	{Args: setup{Rate: 1, Burst: 1, Start: 0}},
	{Args: setup{Rate: second, Burst: 1_000_000, Start: math.MaxUint64}},
	{Args: setup{Rate: 0, Burst: 10, Start: 0}, Bad: "ratePerSec"},
	{Args: setup{Rate: second + 1, Burst: 10, Start: 0}, Bad: "ratePerSec"},
	{Args: setup{Rate: math.MaxUint64, Burst: 10, Start: 0}, Bad: "ratePerSec"},
	{Args: setup{Rate: 10, Burst: 0, Start: 0}, Bad: "burst"},
	{Args: setup{Rate: 10, Burst: 1_000_001, Start: 0}, Bad: "burst"},
	{Args: setup{Rate: 10, Burst: math.MaxUint64, Start: 0}, Bad: "burst"},
}

// newArguments is the new-arguments check: "rate" is enough to name
// ratePerSec.
func newArguments(impl New) check.Outcome {
	return check.NewArgs[setup]{
		Cases: argCases,
		Call:  newCall,
		Make:  func(s setup) { impl(s.Rate, s.Burst, s.Start) },
		Names: map[string][]string{"ratePerSec": {"rate"}, "burst": {"burst"}},
		Why:   "New accepts 1 ≤ ratePerSec ≤ 10^9 and 1 ≤ burst ≤ 10^6 and any nowNs. Outside that range it must panic with a message naming the argument at fault (a division by zero or an index out of range does not say which one); inside it, it must not panic.",
	}.Run()
}
