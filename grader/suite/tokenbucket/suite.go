package tokenbucket

import (
	"math"
	"math/rand"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// Bucket is the token bucket API every implementation offers.
type Bucket interface {
	TryAcquire(nowNs, n uint64) bool
	Available(nowNs uint64) uint64
}

// New builds a bucket: tokenbucket.New, adapted to return the interface.
type New func(capacity, ratePerSec, nowNs uint64) Bucket

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome {
		return func(seed int64) check.Outcome { return d.property(impl).Run(seed, why) }
	}
	fixed := func(s script, why string) func(int64) check.Outcome {
		return func(int64) check.Outcome {
			return check.Case(s, func(s script) check.Trace { return replay(impl, s) }, why)
		}
	}
	return check.Suite{
		Exercise:   "tokenbucket",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "tokenbucket/starts-full", Title: "Starts full", Kind: report.Case, Pitfall: "capacity", Points: 2,
				Hint: "New must fill the bucket: a fresh bucket grants a burst of capacity tokens at once.",
				Run: fixed(script{Setup: setup{Capacity: 5, Rate: 1, Start: 1000}, Ops: []op{
					{Available: true}, {N: 5}, {Available: true}, {N: 1},
				}}, "A new bucket starts full: capacity tokens are there at the time it is created."),
			},
			{
				ID: "tokenbucket/capacity", Title: "Never holds more than its capacity", Kind: report.Property, Pitfall: "capacity", Points: 3,
				Hint: "Clamp to capacity after every refill, however long the bucket was idle, before anything else reads or takes.",
				Run:  prop(capacityDomain, "Here time only moved forward by whole tokens, so the only difference left is how much the bucket holds: it starts at capacity and can never hold more, however long it waits."),
			},
			{
				ID: "tokenbucket/fractional-tokens", Title: "Keeps fractional tokens between calls", Kind: report.Property, Pitfall: "fractional-tokens", Points: 5,
				Hint: "Keep what each refill earns below a whole token: count in units of 10^-9 token, so elapsed×rate is exact. If instead you advance your refill clock only by the time the whole tokens took, that time is a whole number of nanoseconds only when the rate divides 10^9: the leftover must be kept too.",
				Run:  prop(fractionalDomain, "Every call here came less than one token's worth of time after the one before, so each earned only part of a token. Those parts must add up to whole tokens; rounding each refill down and moving the clock anyway throws them away."),
			},
			{
				ID: "tokenbucket/waits-exactly", Title: "A client calling every 100 µs at 1,000 tokens/s gets a token every millisecond", Kind: report.Case, Pitfall: "fractional-tokens", Points: 2,
				Hint: "Each 100 µs call earns 0.1 token. Ten of them make a token; keep the tenths.",
				Run:  fixed(everyHundredMicros(), "After ten calls 100 µs apart at 1,000 tokens/s, one whole token has been earned, a tenth at a time."),
			},
			{
				ID: "tokenbucket/partial-take", Title: "Takes all n tokens or none", Kind: report.Property, Pitfall: "partial-take", Points: 4,
				Hint: "Decide first, change second: compare n with what is there, and only if all n are available subtract them.",
				Run:  prop(partialDomain, "A request for more tokens than the bucket holds must be refused and take nothing, so the tokens are still there for the next, smaller request."),
			},
			{
				ID: "tokenbucket/backward-time", Title: "Ignores a clock that steps back", Kind: report.Property, Pitfall: "backward-time", Points: 5,
				Hint: "A time at or before the latest one seen means no time passed: refill nothing, and never move your remembered time backwards.",
				Run:  prop(backwardDomain, "The clock stepped back in this sequence. An earlier time adds nothing; it must neither underflow now−latest into a huge refill nor rewind the bucket's clock so the same interval is credited twice."),
			},
			{
				ID: "tokenbucket/overflow", Title: "Stays exact for huge values and long idle", Kind: report.Property, Pitfall: "overflow", Points: 5,
				Hint: "elapsed×rate, capacity×10^9 and n×10^9 can all pass 2^64: use a 128-bit product (math/bits.Mul64), or cap elapsed at the time to fill the bucket before multiplying, and compare n with whole tokens before scaling it.",
				Run:  prop(overflowDomain, "The values here are large: long idle, huge rates, capacities or requests, times next to MaxUint64. Every uint64 is legal, and products that leave 64 bits must not wrap."),
			},
			{
				ID: "tokenbucket/exactness", Title: "Agrees with the exact model on every call", Kind: report.Property, Pitfall: "exactness", Points: 5,
				Hint: "Replay the counterexample by hand with the units model: refill (now−latest)×rate units, cap at capacity×10^9, take n×10^9 only if all are there, Available rounds units/10^9 down.",
				Run:  prop(exactDomain, "The bucket must agree with the exact model on every call: whole-unit refills, the cap, all-or-nothing takes and Available rounded down."),
			},
			{
				ID: "tokenbucket/budget", Title: "TryAcquire within 40 ns and without allocating", Kind: report.Benchmark, Pitfall: "budget", Points: 4,
				Hint: "One refill and one comparison per call: no loops over tokens, no maps, no allocation, no clock reads, no division where a comparison will do.",
				Run:  func(int64) check.Outcome { return benchmark(r) },
			},
		},
	}
}

// notStarted reports whether impl is the untouched stub.
func notStarted(impl New) bool {
	b, p := check.Call(func() Bucket { return impl(1, 1, 0) })
	if p != nil {
		return p.Stub()
	}
	_, p1 := check.Call(func() bool { return b.TryAcquire(0, 1) })
	_, p2 := check.Call(func() uint64 { return b.Available(0) })
	return p1.Stub() && p2.Stub()
}

func everyHundredMicros() script {
	ops := []op{{N: 1}} // take the only token
	for range 10 {
		ops = append(ops, op{Wait: 100_000, N: 1})
	}
	return script{Setup: setup{Capacity: 1, Rate: 1000}, Ops: ops}
}

func anyRate(r *rand.Rand) uint64 {
	switch r.Intn(3) {
	case 0:
		return check.Pick(r, check.DividesSecond...)
	case 1:
		return check.Pick(r, check.NotDividingSecond...)
	}
	return check.Between(r, 1, 2_000_000)
}

func moderateStart(r *rand.Rand) uint64 { return check.Pick(r, 0, check.Between(r, 0, 1e12)) }

// divisorRate draws a setup whose rate divides a second, so whole-token
// waits exist, with a capacity in [1, maxCap].
func divisorRate(maxCap uint64) func(r *rand.Rand) setup {
	return func(r *rand.Rand) setup {
		return setup{Capacity: check.Between(r, 1, maxCap), Rate: check.Pick(r, check.DividesSecond...), Start: moderateStart(r)}
	}
}

func divisorRateOK(maxCap uint64) func(setup) bool {
	return func(s setup) bool {
		return s.Capacity >= 1 && s.Capacity <= maxCap && 1_000_000_000%max(s.Rate, 1) == 0 && s.Rate > 0 && s.Rate <= 1_000_000
	}
}

// tokens waits a whole number of token intervals, from none to k.
func tokens(k uint64) func(r *rand.Rand, s setup) uint64 {
	return func(r *rand.Rand, s setup) uint64 { return check.Between(r, 0, k) * interval(s.Rate) }
}

func upTo(r *rand.Rand, _ setup, avail uint64) uint64 { return check.Between(r, 0, avail) }

var capacityDomain = domain{
	setup:   divisorRate(40),
	setupOK: divisorRateOK(40),
	wait: func(r *rand.Rand, s setup) uint64 {
		k := check.Pick(r, 0, 1, 2, 3, check.Between(r, s.Capacity, 3*s.Capacity+1))
		return k * interval(s.Rate)
	},
	available: 0.4,
	n:         upTo,
	rules:     rules{wholeRefills: true, nAtMostAvail: true},
	maxOps:    30,
}

var fractionalDomain = domain{
	setup: func(r *rand.Rand) setup {
		return setup{
			Capacity: check.Between(r, 8, 64),
			Rate:     check.Pick(r, 1000, 3, 7, 999_983, 1_000_000, check.Between(r, 1, 1_000_000)),
			Start:    moderateStart(r),
		}
	},
	setupOK: func(s setup) bool { return s.Capacity >= 8 && s.Rate >= 1 && s.Rate <= 1_000_000 },
	drain:   true,
	wait: func(r *rand.Rand, s setup) uint64 {
		i := interval(s.Rate) // >= 1000 ns at these rates
		return check.Pick(r, i/10, i/3, i/2, check.Between(r, 1, i-1))
	},
	// No Available calls: how it rounds is exactness's business; here
	// only the tokens granted count.
	available: 0,
	aim:       0.3,
	n:         func(*rand.Rand, setup, uint64) uint64 { return 1 },
	rules:     rules{subToken: true, noClamp: true, nIsOne: true},
	maxOps:    60,
}

var partialDomain = domain{
	setup:     divisorRate(20),
	setupOK:   divisorRateOK(20),
	drain:     true,
	wait:      tokens(3),
	available: 0.25,
	n:         func(r *rand.Rand, s setup, avail uint64) uint64 { return check.Between(r, 1, max(avail+3, 1)) },
	rules:     rules{wholeRefills: true, noClamp: true},
	maxOps:    30,
}

var backwardDomain = domain{
	setup:     divisorRate(20),
	setupOK:   divisorRateOK(20),
	drain:     true,
	wait:      tokens(2),
	back:      0.3,
	available: 0.35,
	n:         upTo,
	rules:     rules{backward: true, wholeRefills: true, noClamp: true, nAtMostAvail: true},
	maxOps:    30,
}

// hugeRates are multiples of 10^9 tokens per second, so that every refill
// is a whole number of tokens: only overflow can go wrong.
var hugeRates = []uint64{1_000_000_000, 2_000_000_000, 1e12, 1e15, 1e18, 18e18, math.MaxUint64 - math.MaxUint64%1_000_000_000}

var overflowDomain = domain{
	setup: func(r *rand.Rand) setup {
		return setup{
			Rate:     check.Pick(r, hugeRates...),
			Capacity: check.Pick(r, 1, 10, 1_000_000, 1<<34, 1e12, 1<<62, math.MaxUint64/1_000_000_000+1, math.MaxUint64, r.Uint64()),
			Start:    check.Pick(r, 0, 1, math.MaxUint64/2, math.MaxUint64-check.Between(r, 0, 1e9), math.MaxUint64),
		}
	},
	drain: true,
	wait: func(r *rand.Rand, s setup) uint64 {
		const hour, day = 3_600_000_000_000, 86_400_000_000_000
		return check.Pick(r, 0, 1, 1000, hour, day, 365*day, math.MaxUint64/3, math.MaxUint64, r.Uint64())
	},
	available: 0.35,
	n: func(r *rand.Rand, s setup, avail uint64) uint64 {
		return check.Pick(r, 0, 1, avail, avail/2, min(avail, math.MaxUint64/1_000_000_000+1), min(avail, 1<<54))
	},
	// Big enough capacities pass 2^64 units without clamping, so
	// products that wrap are caught without blaming a missing cap.
	rules:  rules{wholeRefills: true, noClamp: true, nAtMostAvail: true},
	maxOps: 12,
}

var exactDomain = domain{
	setup: func(r *rand.Rand) setup {
		return setup{Capacity: check.Pick(r, 1, 2, 3, check.Between(r, 1, 1000)), Rate: anyRate(r), Start: moderateStart(r)}
	},
	wait: func(r *rand.Rand, s setup) uint64 {
		i := interval(s.Rate)
		return check.Pick(r, 0, 1, i/2, i, i+1, check.Between(r, 0, 4*i), check.Between(r, 0, (s.Capacity+2)*i))
	},
	aim:       0.3,
	available: 0.3,
	n: func(r *rand.Rand, s setup, avail uint64) uint64 {
		return check.Pick(r, 0, 1, 1, 2, avail, avail+1, s.Capacity, check.Between(r, 0, s.Capacity))
	},
	maxOps: 40,
}
