package tokenbucket

import (
	"math"
	"math/big"
	"math/bits"

	"ratelab/grader/check"
	"ratelab/grader/model"
)

// traps are the features each check is about (see check.Trap), found by
// replaying a script on the model: a check keeps a difference only where
// its feature is in the script and, where it can be taken out, the
// difference goes with it.
var traps = map[string]check.Trap[setup, op]{
	// A refill that the cap cuts short: the bucket would hold more than
	// its capacity without it.
	"capacity": {Has: anyCall(func(m *model.Bucket, s setup, o op, latest, now uint64) bool {
		return now > latest && earned(now-latest, s.Rate).Cmp(m.Room()) > 0
	})},
	// A refill that earns part of a token, and that the cap does not cut:
	// a fraction to keep.
	"fractional-tokens": {Has: anyCall(func(m *model.Bucket, s setup, o op, latest, now uint64) bool {
		e := earned(max(now, latest)-latest, s.Rate)
		return e.Sign() > 0 && e.Cmp(m.Room()) < 0 && new(big.Int).Rem(e, unitsPerToken).Sign() != 0
	})},
	// A request for more than the bucket holds, before the last call,
	// which takes nothing: without it, the contract answers every other
	// call alike.
	"partial-take": {Has: func(s script) bool {
		found := false
		eachCall(s, func(m *model.Bucket, st setup, o op, latest, now uint64, i int) {
			found = found || i < len(s.Ops)-1 && overAsks(m, st, o, latest, now)
		})
		return found
	}, Neutral: check.Without[setup, op](func(s script, i int) bool {
		over := false
		eachCall(s, func(m *model.Bucket, st setup, o op, latest, now uint64, j int) {
			if j == i {
				over = overAsks(m, st, o, latest, now)
			}
		})
		return over
	})},
	"backward-time": check.StepsBack[setup, op](func(s setup) uint64 { return s.Start }),
	// A product or a sum past 2^64: capacity×10^9, elapsed×rate, n×10^9,
	// or units held plus a refill; neutralised by scaling the script down
	// (see scaledDown).
	"overflow": {Has: overflows, Neutral: scaledDown},
}

// overflows reports whether s holds a product or a sum past 2^64 in the
// contract's arithmetic (see traps).
func overflows(s script) bool {
	if _, lo := bits.Mul64(s.Setup.Capacity, 1_000_000_000); lo/1_000_000_000 != s.Setup.Capacity {
		return true
	}
	over := false
	eachCall(s, func(m *model.Bucket, st setup, o op, latest, now uint64, _ int) {
		if now > latest {
			if hi, _ := bits.Mul64(now-latest, st.Rate); hi > 0 {
				over = true
			}
		}
		if hi, _ := bits.Mul64(o.N, 1_000_000_000); hi > 0 && !o.Available {
			over = true
		}
		if now > latest && new(big.Int).Add(new(big.Int).Sub(capUnits(st), m.Room()), earned(now-latest, st.Rate)).Cmp(maxUint64) > 0 {
			over = true
		}
	})
	return over
}

// scaledDown is the neutraliser of the overflow trap: s rewritten by a
// check.Scale, its capacity lowered and every other count kept or all of
// them scaled down alike, whichever keeps more of the refills that did not
// fill the bucket from filling it, and its rate at most a full bucket a
// nanosecond, so that no product passes 2^64 and a mistake that is not
// about overflow still shows; ok is false if neither way avoids overflow.
func scaledDown(s script) (script, bool) {
	return check.ScaledDown(s, s.Setup.Capacity, s.Setup.Rate, rewritten, overflows)
}

// rewritten returns s rewritten by k (see scaledDown), and how many of
// its refills that did not fill the bucket fill it there.
func rewritten(s script, k check.Scale) (out script, missed int) {
	st := s.Setup
	c := k.Capacity(st.Capacity)
	out = script{Setup: setup{Capacity: c, Rate: min(k.Rate(st.Rate), c*1_000_000_000), Start: k.Start(st.Start)}, Full: s.Full}
	m := model.NewBucket(out.Setup.Capacity, out.Setup.Rate, out.Setup.Start)
	latest := out.Setup.Start
	eachCall(s, func(orig *model.Bucket, st setup, o op, was, now uint64, _ int) {
		switch {
		case o.Back == 0 && now > was:
			filled := earned(now-was, st.Rate).Cmp(orig.Room()) >= 0
			wait, kept := k.Elapsed(now-was, check.StepOf(m.Room(), out.Setup.Rate, filled))
			if o.Wait = wait; !kept {
				missed++
			}
		case o.Back == 0:
			o.Wait = 0
		}
		at := o.At(latest)
		held := m.Available(at)
		if !o.Available {
			o.N = k.Request(o.N, orig.Available(now), held)
			m.TryAcquire(at, o.N)
		}
		latest = max(latest, at)
		out.Ops = append(out.Ops, o)
	})
	return out, missed
}

var maxUint64 = new(big.Int).SetUint64(math.MaxUint64)

// overAsks reports whether o is a TryAcquire for more than the bucket m
// holds at now.
func overAsks(m *model.Bucket, _ setup, o op, _, now uint64) bool {
	return !o.Available && o.N > m.Available(now)
}

func earned(elapsed, rate uint64) *big.Int {
	return new(big.Int).Mul(new(big.Int).SetUint64(elapsed), new(big.Int).SetUint64(rate))
}

func capUnits(s setup) *big.Int {
	return new(big.Int).Mul(new(big.Int).SetUint64(s.Capacity), unitsPerToken)
}

// eachCall replays s on the model, calling at with the model as it is
// before each call, the latest time before it, the call's time and its
// index.
func eachCall(s script, at func(m *model.Bucket, st setup, o op, latest, now uint64, i int)) {
	m := model.NewBucket(s.Setup.Capacity, s.Setup.Rate, s.Setup.Start)
	latest := s.Setup.Start
	for i, o := range s.Ops {
		now := o.At(latest)
		at(m, s.Setup, o, latest, now, i)
		if o.Available {
			m.Available(now)
		} else {
			m.TryAcquire(now, o.N)
		}
		latest = max(latest, now)
	}
}

// anyCall is the Has of a trap whose feature is a call for which at holds.
func anyCall(at func(m *model.Bucket, s setup, o op, latest, now uint64) bool) func(script) bool {
	return func(s script) bool {
		found := false
		eachCall(s, func(m *model.Bucket, st setup, o op, latest, now uint64, _ int) {
			found = found || at(m, st, o, latest, now)
		})
		return found
	}
}
