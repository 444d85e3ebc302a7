package tokenbucket

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand"

	"ratelab/grader/check"
	"ratelab/grader/model"
)

// domain is a check.Domain of token bucket scripts. Its rules keep a
// shrunk counterexample of the fractional-tokens check to sub-token steps,
// so that it is never blamed on a different mistake.
type domain struct {
	aim       // the check it is for
	setup     func(r *rand.Rand) setup
	setupOK   func(s setup) bool
	drain     bool // the first call takes the whole capacity, at the start time or once an empty bucket would be full (fillNs)
	wait      func(r *rand.Rand, s setup) uint64
	back      check.StepBack[setup] // steps back in time; none if zero
	aimed     float64               // chance of a wait aimed at the nanosecond the next token arrives, or the one before
	available float64               // chance of an Available call
	// roomy is the chance that a wait is cut to what the bucket has room
	// for (with rules.noClamp, every wait is).
	roomy float64
	// n draws TryAcquire's n; avail is what the model holds at that time.
	n      func(r *rand.Rand, s setup, avail uint64) uint64
	rules  rules
	maxOps int
}

type aim = check.Aim[setup, op]

// rules restrict the calls of a domain; see Valid.
type rules struct {
	wholeRefills bool // every refill adds a whole number of tokens
	subToken     bool // every refill adds less than one token
	noClamp      bool // no refill reaches past the capacity
	nAtMostAvail bool // TryAcquire never asks for more than is there
	nIsOne       bool // TryAcquire (after the drain) asks for 1
}

// setupValid reports whether s keeps to d's rules.
func (d domain) setupValid(s setup) bool { return d.setupOK == nil || d.setupOK(s) }

// Valid returns how many leading calls of s keep to d's rules (all of them
// if s is valid), replaying s on the model.
func (d domain) Valid(s script) int {
	st := s.Setup
	if !d.setupValid(st) {
		return -1
	}
	m := model.NewBucket(st.Capacity, st.Rate, st.Start)
	latest := st.Start
	for i, o := range s.Ops {
		now := check.Saturating(latest, o.Wait)
		if o.Back > 0 {
			if !d.back.Allowed() {
				return i
			}
			now = latest - min(o.Back, latest)
		}
		if d.drain && i == 0 && (o.Available || o.N != st.Capacity || o.Back > 0 || o.Wait != 0 && o.Wait != fillNs(st)) {
			return i
		}
		if now > latest && !(d.drain && i == 0) {
			hi, lo := bits.Mul64(now-latest, st.Rate)
			earned := new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64), new(big.Int).SetUint64(lo))
			if d.rules.wholeRefills && new(big.Int).Rem(earned, unitsPerToken).Sign() != 0 {
				return i
			}
			if d.rules.subToken && earned.Cmp(unitsPerToken) >= 0 {
				return i
			}
			if d.rules.noClamp && earned.Cmp(m.Room()) > 0 {
				return i
			}
		}
		avail := m.Available(now)
		latest = max(latest, now)
		if o.Available {
			continue
		}
		if d.rules.nAtMostAvail && o.N > avail {
			return i
		}
		if d.rules.nIsOne && o.N != 1 && !(d.drain && i == 0) {
			return i
		}
		m.TryAcquire(now, o.N)
	}
	return len(s.Ops)
}

// Gen draws a script, choosing each call with the model's state in view,
// and keeps its longest valid prefix.
func (d domain) Gen(r *rand.Rand, size int) script {
	s := check.DrawUntil(r, d.setup, d.setupValid)
	m := model.NewBucket(s.Capacity, s.Rate, s.Start)
	latest := s.Start
	var ops []op
	if d.drain {
		// Half the drains come once an empty bucket would have filled: a
		// bucket that starts empty then answers as the contract's does,
		// and the calls after the drain tell other mistakes from it.
		o := op{N: s.Capacity}
		if check.Chance(r, 0.5) {
			o.Wait = fillNs(s)
			latest = check.Saturating(latest, o.Wait)
		}
		ops = append(ops, o)
		m.TryAcquire(latest, s.Capacity)
	}
	run := 0 // consecutive Available calls
	for range check.Ops(r, size, 1, d.maxOps) {
		o := op{When: check.When{Wait: d.wait(r, s)}}
		if check.Chance(r, d.aimed) {
			next := m.NsToNextToken()
			o.Wait = next - check.Pick(r, uint64(0), min(next, 1))
		}
		if d.rules.noClamp || d.roomy > 0 && check.Chance(r, d.roomy) {
			o.Wait = min(o.Wait, m.RoomNs())
		}
		now := check.Saturating(latest, o.Wait)
		if back, ok := d.back.Draw(r, s, latest); ok {
			o.Wait, o.Back = 0, back
			now = latest - min(o.Back, latest)
		}
		avail := m.Available(now)
		latest = max(latest, now)
		if check.Chance(r, d.available) && run < 2 {
			o.Available = true
			run++
		} else {
			o.N = d.n(r, s, avail)
			m.TryAcquire(now, o.N)
			run = 0
		}
		ops = append(ops, o)
	}
	return check.ValidPrefix(d, script{Setup: s, Ops: ops})
}

// base is what every property of the suite shares: how its scripts
// shrink and how their failures are explained.
var base = check.Property[setup, op]{ShrinkSetup: shrinkSetup, ShrinkOp: shrinkOp, Merge: check.MergeWaits[op], Explain: explain}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return d.aim.Property(d, base, func(s script) check.Trace { return replay(newImpl, s) })
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

// backTokens steps back by 1 ns, just over half a token's interval, one
// to five intervals, or 2^62 ns.
func backTokens(r *rand.Rand, s setup, _ uint64) uint64 {
	return check.Pick(r, 1, interval(s.Rate)/2+1, interval(s.Rate)*check.Between(r, 1, 5), 1<<62)
}

var capacityDomain = domain{
	aim:     aim{Check: "capacity"},
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
	aim: aim{Check: "fractional-tokens", Explain: explainFractional},
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
	aimed:     0.3,
	n:         func(*rand.Rand, setup, uint64) uint64 { return 1 },
	rules:     rules{subToken: true, noClamp: true, nIsOne: true},
	maxOps:    60,
}

var partialDomain = domain{
	aim:       aim{Check: "partial-take"},
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
	aim:       aim{Check: "backward-time"},
	setup:     divisorRate(20),
	setupOK:   divisorRateOK(20),
	drain:     true,
	wait:      tokens(2),
	back:      check.StepBack[setup]{Chance: 0.3, By: backTokens},
	available: 0.35,
	n:         upTo,
	rules:     rules{wholeRefills: true, noClamp: true, nAtMostAvail: true},
	maxOps:    30,
}

// hugeRates are multiples of 10^9 tokens per second, so that every refill
// is a whole number of tokens: only overflow can go wrong.
var hugeRates = []uint64{1_000_000_000, 2_000_000_000, 1e12, 1e15, 1e18, 18e18, math.MaxUint64 - math.MaxUint64%1_000_000_000}

var overflowDomain = domain{
	aim: aim{Check: "overflow"},
	// Shrinking keeps what the generator draws: no capacity or rate of 0.
	setupOK: drawnRange,
	setup: func(r *rand.Rand) setup {
		return setup{
			Rate:     check.Pick(r, hugeRates...),
			Capacity: check.Pick(r, 1, 10, 1_000_000, 1<<34, 1e12, 1<<62, math.MaxUint64/1_000_000_000+1, math.MaxUint64, r.Uint64()),
			Start:    check.Pick(r, 0, 1, math.MaxUint64/2, math.MaxUint64-check.Between(r, 0, 1e9), math.MaxUint64),
		}
	},
	// No drain first: a first Available or a small request tells a
	// capacity×10^9 that wraps from a bucket that starts empty.
	wait: func(r *rand.Rand, s setup) uint64 {
		const hour, day = 3_600_000_000_000, 86_400_000_000_000
		return check.Pick(r, 0, 1, 1000, hour, day, 365*day, math.MaxUint64/3, math.MaxUint64, r.Uint64())
	},
	available: 0.35,
	n: func(r *rand.Rand, s setup, avail uint64) uint64 {
		return check.Pick(r, 0, 1, avail, avail/2, min(avail, math.MaxUint64/1_000_000_000+1), min(avail, 1<<54))
	},
	// Most waits stop short of a full bucket, so that big enough
	// capacities pass 2^64 units without clamping; the others may fill it
	// from anywhere, with a refill past 2^64 units, or past 10^9·2^64
	// (whose tokens do not fit in 64 bits). A mistake about the cap that
	// shows here is charged to capacity: without the huge values (the
	// trap's neutraliser) it still shows.
	roomy:  0.6,
	rules:  rules{wholeRefills: true, nAtMostAvail: true},
	maxOps: 12,
}

var exactDomain = domain{
	aim:     aim{Check: "exactness"},
	setupOK: drawnRange,
	setup: func(r *rand.Rand) setup {
		return setup{Capacity: check.Pick(r, 1, 2, 3, check.Between(r, 1, 1000)), Rate: anyRate(r), Start: moderateStart(r)}
	},
	wait: func(r *rand.Rand, s setup) uint64 {
		i := interval(s.Rate)
		return check.Pick(r, 0, 1, i/2, i, i+1, check.Between(r, 0, 4*i), check.Between(r, 0, (s.Capacity+2)*i))
	},
	aimed:     0.3,
	available: 0.3,
	n: func(r *rand.Rand, s setup, avail uint64) uint64 {
		return check.Pick(r, 0, 1, 1, 2, avail, avail+1, s.Capacity, check.Between(r, 0, s.Capacity))
	},
	maxOps: 40,
}

// drawnRange is the range every domain draws setups from: a capacity and a
// rate of at least 1. A shrunk counterexample stays in it, so that a
// mismatch found is never traded for New(0, 0, 0), which no check draws.
func drawnRange(s setup) bool { return s.Capacity >= 1 && s.Rate >= 1 }

// fillNs is how long an empty bucket of s takes to fill: capacity token
// intervals (MaxUint64 if longer).
func fillNs(s setup) uint64 {
	hi, lo := bits.Mul64(s.Capacity, interval(s.Rate))
	if hi > 0 {
		return math.MaxUint64
	}
	return lo
}
