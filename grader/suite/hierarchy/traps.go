package hierarchy

import (
	"math"
	"math/big"

	"ratelab/grader/check"
)

// traps are the checks' traps that the suite declares (see check.Trap);
// every other check's is the one its pitfall's mistakes fall into. A step
// back in time is neutralised by making the call at the latest time
// instead, which the contract answers alike.
var traps = map[string]check.Trap[setup, op]{
	"backward-time": check.StepsBack[setup, op](func(s setup) uint64 { return s.Start }),
	// A product or a sum past 2^64: a node's capacity×10^9, elapsed×rate,
	// units held plus a refill, or n×10^9; neutralised by scaling the
	// script down (see scaledDown).
	"overflow": {Has: overflows, Neutral: scaledDown},
}

var maxUint64 = new(big.Int).SetUint64(math.MaxUint64)

// eachCall replays s on the model, calling at with the model as it is
// before each call, the latest time before it and the call's time.
func eachCall(s script, at func(m *model, o op, latest, now uint64)) {
	m := newModel(s.Setup.Start)
	for _, o := range s.Ops {
		latest := m.Latest()
		now := o.At(latest)
		at(m, o, latest, now)
		apply(m, o, now)
	}
}

// overflows reports whether s holds a product or a sum past 2^64 in the
// contract's arithmetic, on a node Add made or a call on one.
func overflows(s script) bool {
	over := false
	past := func(x *big.Int) { over = over || x.Cmp(maxUint64) > 0 }
	eachCall(s, func(m *model, o op, latest, now uint64) {
		switch {
		case o.Kind == add:
			if m.Problem(o.Node) == "" {
				past(new(big.Int).Mul(new(big.Int).SetUint64(o.N), unitsPerToken))
			}
			return
		case o.Kind == acquire && m.Valid(o.Node):
			past(new(big.Int).Mul(new(big.Int).SetUint64(o.N), unitsPerToken))
		}
		if now <= latest {
			return
		}
		for i := range m.Len() {
			e := new(big.Int).Mul(new(big.Int).SetUint64(now-latest), new(big.Int).SetUint64(m.Rate(i)))
			past(e)
			past(e.Add(e, m.Units(i)))
		}
	})
	return over
}

// scaledDown is the neutraliser of the overflow trap: s rewritten by a
// check.Scale, its capacities lowered and every other count kept or all
// of them scaled down alike, whichever keeps more of the refills that did
// not fill a node from filling it, and each rate at most a full node a
// nanosecond, so that no product passes 2^64 and a mistake that is not
// about overflow still shows; ok is false if neither way avoids overflow
// (a step that fills a slow node may still make a fast one's refill huge).
func scaledDown(s script) (script, bool) {
	most, fastest := uint64(0), uint64(0)
	eachCall(s, func(m *model, o op, _, _ uint64) {
		if o.Kind == add && m.Problem(o.Node) == "" {
			most, fastest = max(most, o.N), max(fastest, o.Rate)
		}
	})
	return check.ScaledDown(s, most, fastest, rewritten, overflows)
}

// rewritten returns s rewritten by k (see scaledDown), and how many of
// its refills that did not fill a node fill it there.
func rewritten(s script, k check.Scale) (out script, missed int) {
	out = script{Setup: setup{Start: k.Start(s.Setup.Start)}, Full: s.Full}
	m := newModel(out.Setup.Start)
	eachCall(s, func(orig *model, o op, latest, now uint64) {
		switch {
		case o.Kind == add:
			o.N = k.Capacity(o.N)
			o.Rate = k.Rate(o.Rate)
			if o.N <= check.MostScaled { // a refused Add's may be larger
				o.Rate = min(o.Rate, o.N*1_000_000_000)
			}
			m.Add(o.Node, o.N, o.Rate)
		case o.Back == 0:
			o.Wait = 0
			if now > latest {
				wait, kept := k.Elapsed(now-latest, step(orig, m, now))
				if o.Wait = wait; !kept {
					missed++
				}
			}
		}
		if o.Kind != add {
			at := o.At(m.Latest())
			held := m.Available(o.Node, at)
			if o.Kind == acquire {
				o.N = k.Request(o.N, orig.Available(o.Node, now), held)
				m.TryAcquire(o.Node, at, o.N)
			}
		}
		out.Ops = append(out.Ops, o)
	})
	return out, missed
}

// step returns what the step of the clock from the latest time of orig to
// now does in the rewritten tree m (see check.Step): the nodes it fills in
// orig must fill in m, the others not.
func step(orig, m *model, now uint64) check.Step {
	st := check.Step{Room: math.MaxUint64}
	for i := range m.Len() {
		earned := new(big.Int).Mul(new(big.Int).SetUint64(max(now, orig.Latest())-orig.Latest()), new(big.Int).SetUint64(orig.Rate(i)))
		filled := earned.Cmp(orig.Room(i)) >= 0
		st = st.And(check.StepOf(m.Room(i), m.Rate(i), filled))
	}
	return st
}
