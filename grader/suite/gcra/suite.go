package gcra

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/model"
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
	prop := func(d domain, why string) func(int64) check.Outcome {
		return func(seed int64) check.Outcome { return d.property(impl).Run(seed, why) }
	}
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

// argCase is one call of New in the new-arguments check: bad names the
// argument out of range, "" if both are in range.
type argCase struct {
	rate, burst, now uint64
	bad              string
}

var argCases = []argCase{
	{rate: 1, burst: 1, now: 0},
	{rate: second, burst: 1_000_000, now: math.MaxUint64},
	{rate: 0, burst: 10, now: 0, bad: "ratePerSec"},
	{rate: second + 1, burst: 10, now: 0, bad: "ratePerSec"},
	{rate: math.MaxUint64, burst: 10, now: 0, bad: "ratePerSec"},
	{rate: 10, burst: 0, now: 0, bad: "burst"},
	{rate: 10, burst: 1_000_001, now: 0, bad: "burst"},
	{rate: 10, burst: math.MaxUint64, now: 0, bad: "burst"},
}

// names reports whether a panic message names the argument: "rate" is
// enough for ratePerSec.
func names(msg, arg string) bool {
	msg = strings.ToLower(msg)
	if arg == "ratePerSec" {
		return strings.Contains(msg, "rate")
	}
	return strings.Contains(msg, strings.ToLower(arg))
}

// newArguments calls New with arguments at both ends of the range and just
// outside it.
func newArguments(impl New) check.Outcome {
	t := check.Trace{Setup: "// each step is a call of New on its own"}
	for _, c := range argCases {
		call := fmt.Sprintf("New(ratePerSec=%s, burst=%s, nowNs=%s)", check.U(c.rate), check.U(c.burst), check.U(c.now))
		_, p := check.Call(func() Limiter { return impl(c.rate, c.burst, c.now) })
		want, got := "no panic", "no panic"
		if c.bad != "" {
			want = "a panic naming " + c.bad
		}
		if p != nil {
			got = "panic: " + p.Error()
			if c.bad != "" && names(p.Error(), c.bad) {
				got = want
			}
		}
		if !t.Step(call, got, want, nil) {
			return check.Fail(t, "New accepts 1 ≤ ratePerSec ≤ 10^9 and 1 ≤ burst ≤ 10^6 and any nowNs. Outside that range it must panic with a message naming the argument at fault (a division by zero or an index out of range does not say which one); inside it, it must not panic.")
		}
	}
	return check.Pass()
}

// divisor draws a random rate that divides 10^9: 2^a × 5^b.
func divisor(r *rand.Rand) uint64 {
	x := uint64(1)
	for range r.Intn(10) {
		x *= 2
	}
	for range r.Intn(10) {
		x *= 5
	}
	return x
}

// nonDivisor draws a rate in range that does not divide 10^9.
func nonDivisor(r *rand.Rand) uint64 {
	if check.Chance(r, 0.5) {
		return check.Pick(r, check.NotDividingSecond...)
	}
	for {
		x := check.Pick(r, check.Between(r, 2, 100), check.Between(r, 2, 100_000), check.Between(r, 2, second))
		if !dividesSecond(x) {
			return x
		}
	}
}

func smallBurst(r *rand.Rand) uint64 {
	return check.Pick(r, 1, 1, 2, 3, check.Between(r, 1, 10), check.Between(r, 1, 1000))
}

// modestStart draws a start time small enough for rules.modest.
func modestStart(r *rand.Rand, rate uint64) uint64 {
	return check.Pick(r, 0, 1, check.Between(r, 0, min(1e12, (1<<61)/rate)))
}

// boundaryWait waits until the model's next token, or just before or after
// it, or a whole number of intervals, or long enough to refill.
func boundaryWait(r *rand.Rand, s setup, m *model.Bucket) uint64 {
	next, t := m.UntilToken(), interval(s.Rate)
	return check.Pick(r, 0, 0, next, next, next, max(next, 1)-1, next+1, t, t-1, check.Between(r, 0, 2*t), check.Between(r, 0, (s.Burst+2)*t))
}

// backStep steps back a little, a few intervals, or to the very start.
func backStep(r *rand.Rand, s setup, latest uint64) uint64 {
	t := interval(s.Rate)
	return check.Pick(r, 1, 1, t/2+1, t, t*check.Between(r, 1, 5), latest-s.Start, latest)
}

var exactDomain = domain{
	setup: func(r *rand.Rand) setup {
		rate := check.Pick(r, divisor(r), check.Pick(r, check.DividesSecond...), second)
		return setup{Rate: rate, Burst: smallBurst(r), Start: modestStart(r, rate)}
	},
	setupOK: func(s setup) bool { return dividesSecond(s.Rate) },
	wait:    boundaryWait,
	rules:   rules{modest: true},
	maxOps:  40,
}

var roundingDomain = domain{
	setup: func(r *rand.Rand) setup {
		rate := nonDivisor(r)
		return setup{Rate: rate, Burst: check.Pick(r, 1, 1, 2, 3, check.Between(r, 1, 20)), Start: modestStart(r, rate)}
	},
	setupOK: func(s setup) bool { return !dividesSecond(s.Rate) },
	wait: func(r *rand.Rand, s setup, m *model.Bucket) uint64 {
		// Mostly calls on the very nanosecond a token comes (or one
		// before it), so that a rounded schedule is caught as soon as
		// it is off by one nanosecond.
		next := m.UntilToken()
		return check.Pick(r, next, next, next, max(next, 1)-1, 0, boundaryWait(r, s, m))
	},
	rules:  rules{modest: true},
	maxOps: 60,
}

var backwardDomain = domain{
	setup: func(r *rand.Rand) setup {
		rate := check.Pick(r, divisor(r), check.Pick(r, check.DividesSecond...))
		return setup{Rate: rate, Burst: check.Pick(r, 1, 2, 3, check.Between(r, 1, 10)), Start: check.Pick(r, 1, 1000, modestStart(r, rate))}
	},
	setupOK:    func(s setup) bool { return dividesSecond(s.Rate) },
	wait:       boundaryWait,
	back:       backStep,
	backChance: 0.3,
	rules:      rules{backward: true, modest: true},
	maxOps:     30,
}

// wrapWait returns an idle time whose product with rate wraps around 2^64
// to exactly k×2^tz(rate), a small number: a GCRA that multiplies the idle
// time by the rate in 64 bits sees next to no time pass.
func wrapWait(r *rand.Rand, rate uint64) uint64 {
	tz := bits.TrailingZeros64(rate)
	odd := rate >> tz
	inv := odd // Newton's iteration for the inverse of odd mod 2^64
	for range 6 {
		inv *= 2 - odd*inv
	}
	k := check.Pick(r, 0, 1, check.Between(r, 0, 1000))
	w := k * inv // w*rate = k*2^tz mod 2^64
	if tz > 0 {
		w += check.Between(r, 1, 1<<tz-1) << (64 - tz)
	}
	return w
}

var overflowDomain = domain{
	setup: func(r *rand.Rand) setup {
		rate := check.Pick(r, 1, 2, 512, 1000, 1_000_000, 500_000_000, second, divisor(r))
		burst := check.Pick(r, 1, 2, 1_000_000, 999_999, check.Between(r, 1, 1_000_000))
		full := burst * interval(rate)
		start := check.Pick(r, 0, 1, math.MaxUint64, math.MaxUint64-check.Between(r, 0, 3*interval(rate)),
			math.MaxUint64-full, math.MaxUint64-full+check.Between(r, 0, interval(rate)), 1<<63, wrapWait(r, rate), r.Uint64())
		return setup{Rate: rate, Burst: burst, Start: start}
	},
	setupOK: func(s setup) bool { return dividesSecond(s.Rate) },
	wait: func(r *rand.Rand, s setup, m *model.Bucket) uint64 {
		const hour, year = 3_600_000_000_000, 365 * 86_400_000_000_000
		return check.Pick(r, 0, 0, m.UntilToken(), max(m.UntilToken(), 1)-1, hour, year, 1<<63, math.MaxUint64,
			wrapWait(r, s.Rate), wrapWait(r, s.Rate), r.Uint64(), boundaryWait(r, s, m))
	},
	maxOps: 12,
}
