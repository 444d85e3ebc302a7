package tokenbucket

import (
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
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(impl).Runs(why) }
	run := func(s script) check.Trace { return replay(impl, s) }
	fixed := func(s script, why string) func(int64) check.Outcome {
		return func(int64) check.Outcome { return check.Case(s, run, why) }
	}
	// afterStart is a case whose mistake shows only after the first call.
	afterStart := func(s script, why string) func(int64) check.Outcome {
		return func(int64) check.Outcome {
			return check.TrappedCase(s, run, func(s script, t check.Trace) bool { return fractionalTrap(s, t, run) }, why)
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
				Run:  prop(fractionalDomain, "Those parts must add up to whole tokens; rounding each refill down and moving the clock anyway throws them away."),
			},
			{
				ID: "tokenbucket/waits-exactly", Title: "A client calling every 100 µs at 1,000 tokens/s gets a token every millisecond", Kind: report.Case, Pitfall: "fractional-tokens", Points: 2,
				Hint: "Each 100 µs call earns 0.1 token. Ten of them make a token; keep the tenths.",
				Run:  afterStart(everyHundredMicros(), "After ten calls 100 µs apart at 1,000 tokens/s, one whole token has been earned, a tenth at a time."),
			},
			{
				ID: "tokenbucket/partial-take", Title: "Takes all n tokens or none", Kind: report.Property, Pitfall: "partial-take", Points: 4,
				Hint: "Decide first, change second: compare n with what is there, and only if all n are available subtract them.",
				Run:  prop(partialDomain, "A request here asked for more tokens than the bucket held. It must be refused and take nothing, so the tokens are still there for the next, smaller request."),
			},
			{
				ID: "tokenbucket/backward-time", Title: "Ignores a clock that steps back", Kind: report.Property, Pitfall: "backward-time", Points: 5,
				Hint: "A time at or before the latest one seen means no time passed: refill nothing, and never move your remembered time backwards.",
				Run:  prop(backwardDomain, "The clock stepped back in this sequence, and made at the latest time instead, the same calls pass. An earlier time adds nothing; it must neither underflow now−latest into a huge refill nor rewind the bucket's clock so the same interval is credited twice."),
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
