package gcra

import (
	"math"
	"math/bits"
	"math/rand"

	"ratelab/grader/check"
	"ratelab/grader/model"
)

// domain is a check.Domain of GCRA scripts. Its rules keep a shrunk
// counterexample of the rounding check on a rate that does not divide a
// second, and one of the exactness check from stepping back.
type domain struct {
	aim     // the check it is for
	setup   func(r *rand.Rand) setup
	setupOK func(s setup) bool // on top of inRange
	// wait draws how long after the latest time the next call comes; m is
	// the model just before it.
	wait func(r *rand.Rand, s setup, m *model.Bucket) uint64
	back check.StepBack[setup] // steps back in time; none if zero
	// modest: every time t of the script keeps t*rate + burst*10^9 below
	// 2^63, so no product a GCRA might form (absolute times in units of
	// 1/rate ns, the schedule ahead of them) comes near 64 bits. Overflow
	// has a check of its own.
	modest bool
	// swarm: each script first draws which kinds of wait it makes (see
	// swarmWait) and how often it steps back, so that some scripts are all
	// bursts, some all on the nanosecond a token is due, some steady.
	swarm  bool
	maxOps int
}

type aim = check.Aim[setup, op]

// modestTime reports whether t keeps to modest for s.
func modestTime(s setup, t uint64) bool {
	hi, lo := bits.Mul64(t, s.Rate)
	return hi == 0 && lo < 1<<63-s.Burst*second
}

// setupValid reports whether s keeps to d's rules.
func (d domain) setupValid(s setup) bool {
	return inRange(s) && (d.setupOK == nil || d.setupOK(s)) && (!d.modest || modestTime(s, s.Start))
}

// Valid returns how many leading calls of s keep to d's rules (all of them
// if s is valid), or -1 if the setup is out of the domain.
func (d domain) Valid(s script) int {
	st := s.Setup
	if !d.setupValid(st) {
		return -1
	}
	latest := st.Start
	for i, o := range s.Ops {
		if !d.stepOK(st, latest, o) {
			return i
		}
		latest = max(latest, o.At(latest))
	}
	return len(s.Ops)
}

// stepOK reports whether o, coming when latest is the latest time, keeps
// to d's rules.
func (d domain) stepOK(s setup, latest uint64, o op) bool {
	if o.Back > 0 && !d.back.Allowed() {
		return false
	}
	return !d.modest || modestTime(s, o.At(latest))
}

// Gen draws a script, choosing each call with the model's state in view
// (so that calls land on the nanosecond a token comes, and just before),
// and keeps only calls that follow d's rules.
func (d domain) Gen(r *rand.Rand, size int) script {
	if d.swarm {
		d.wait = swarmWait(r, d.wait)
		if d.back.Allowed() {
			d.back.Chance = check.Pick(r, 0.1, d.back.Chance, 0.6)
		}
	}
	s := check.DrawUntil(r, d.setup, d.setupValid)
	m := model.NewBucket(s.Burst, s.Rate, s.Start)
	latest := s.Start
	var ops []op
	for range check.Ops(r, size, 1, d.maxOps) {
		o, ok := check.DrawTries(r, 8, func(r *rand.Rand) op {
			o := op{When: check.When{Wait: d.wait(r, s, m)}}
			if back, ok := d.back.Draw(r, s, latest); ok {
				o = op{When: check.When{Back: max(1, back)}}
			}
			return o
		}, func(o op) bool { return d.stepOK(s, latest, o) })
		if !ok {
			continue
		}
		now := o.At(latest)
		latest = max(latest, now)
		m.TryAcquire(now, 1)
		ops = append(ops, o)
	}
	return script{Setup: s, Ops: ops}
}

// base is what every property of the suite shares: how its scripts
// shrink and how their failures are explained.
var base = check.Property[setup, op]{ShrinkSetup: shrinkSetup, ShrinkOp: shrinkOp, Merge: check.MergeWaits[op], Explain: explain}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return d.aim.Property(d, base, func(s script) check.Trace { return replay(newImpl, s) })
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

// modestStart draws a start time small enough for modest.
func modestStart(r *rand.Rand, rate uint64) uint64 {
	return check.Pick(r, 0, 1, check.Between(r, 0, min(1e12, (1<<61)/rate)))
}

// boundaryWait waits until the model's next token, or just before or after
// it, or a whole number of intervals, or long enough to refill.
func boundaryWait(r *rand.Rand, s setup, m *model.Bucket) uint64 {
	next, t := m.UntilToken(), interval(s.Rate)
	return check.Pick(r, 0, 0, next, next, next, max(next, 1)-1, next+1, t, t-1, check.Between(r, 0, 2*t), check.Between(r, 0, (s.Burst+2)*t))
}

// swarmWait draws the kinds of wait one script makes: all those of wait,
// or only bursts (no wait, or until the next token), or only calls on the
// nanosecond a token is due (or one either side), or a steady pace of
// about one interval.
func swarmWait(r *rand.Rand, wait func(r *rand.Rand, s setup, m *model.Bucket) uint64) func(r *rand.Rand, s setup, m *model.Bucket) uint64 {
	switch r.Intn(4) {
	case 1:
		return func(r *rand.Rand, _ setup, m *model.Bucket) uint64 { return check.Pick(r, 0, 0, m.UntilToken()) }
	case 2:
		return func(r *rand.Rand, _ setup, m *model.Bucket) uint64 {
			next := m.UntilToken()
			return check.Pick(r, next, max(next, 1)-1, next+1)
		}
	case 3:
		return func(r *rand.Rand, s setup, _ *model.Bucket) uint64 {
			t := interval(s.Rate)
			return check.Pick(r, t, t-1, t+1, check.Between(r, 0, 2*t))
		}
	}
	return wait
}

// backStep steps back a little, a few intervals, or to the very start.
func backStep(r *rand.Rand, s setup, latest uint64) uint64 {
	t := interval(s.Rate)
	return check.Pick(r, 1, 1, t/2+1, t, t*check.Between(r, 1, 5), latest-s.Start, latest)
}

var exactDomain = domain{
	aim: aim{Check: "exactness"},
	setup: func(r *rand.Rand) setup {
		rate := check.Pick(r, divisor(r), check.Pick(r, check.DividesSecond...), second)
		return setup{Rate: rate, Burst: smallBurst(r), Start: modestStart(r, rate)}
	},
	setupOK: func(s setup) bool { return dividesSecond(s.Rate) },
	wait:    boundaryWait,
	modest:  true,
	swarm:   true,
	maxOps:  40,
}

var roundingDomain = domain{
	aim: aim{Check: "rounding"},
	setup: func(r *rand.Rand) setup {
		rate := nonDivisor(r)
		return setup{Rate: rate, Burst: check.Pick(r, 1, 1, 2, 3, 5, check.Between(r, 3, 20)), Start: modestStart(r, rate)}
	},
	setupOK: func(s setup) bool { return !dividesSecond(s.Rate) },
	wait: func(r *rand.Rand, s setup, m *model.Bucket) uint64 {
		// Mostly calls on the very nanosecond a token comes (or one
		// before it), so that a rounded schedule is caught as soon as
		// it is off by one nanosecond.
		next := m.UntilToken()
		return check.Pick(r, next, next, next, max(next, 1)-1, 0, boundaryWait(r, s, m))
	},
	modest: true,
	maxOps: 60,
}

var backwardDomain = domain{
	aim: aim{Check: "backward-time", Explain: explainBackward},
	setup: func(r *rand.Rand) setup {
		rate := check.Pick(r, divisor(r), check.Pick(r, check.DividesSecond...))
		return setup{Rate: rate, Burst: check.Pick(r, 1, 2, 3, check.Between(r, 1, 10)), Start: check.Pick(r, 1, 1000, modestStart(r, rate))}
	},
	setupOK: func(s setup) bool { return dividesSecond(s.Rate) },
	wait:    boundaryWait,
	back:    check.StepBack[setup]{Chance: 0.3, By: backStep},
	modest:  true,
	swarm:   true,
	maxOps:  30,
}

// wrapWait returns an idle time whose product with rate wraps around 2^64
// to a small number (at most 1000×rate): a GCRA that multiplies the idle
// time by the rate in 64 bits sees next to no time pass. Half the time it
// is one of the shortest such times, just past 2^64/rate (the product
// then wraps to less than 4×rate), which a GCRA that guards the product
// with a wrong bound still takes for a short one; otherwise a product of
// exactly k×2^tz(rate), k at most 1000.
func wrapWait(r *rand.Rand, rate uint64) uint64 {
	if r.Intn(2) == 0 {
		return math.MaxUint64/rate + 1 + check.Between(r, 0, 3)
	}
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
	aim: aim{Check: "overflow", Explain: explainOverflow},
	setup: func(r *rand.Rand) setup {
		rate := check.Pick(r, 1, 2, 3_000, 512, 1000, 1_000_000, 500_000_000, second, second, divisor(r))
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
