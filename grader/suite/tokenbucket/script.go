package tokenbucket

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand"

	"ratelab/grader/check"
	"ratelab/grader/model"
)

// setup is New's arguments.
type setup struct{ Capacity, Rate, Start uint64 }

// op is one call. Its time is Wait after the latest time of the script so
// far (saturating at MaxUint64), or, if Back is non-zero, Back before it.
type op struct {
	Available bool   // Available instead of TryAcquire
	Wait      uint64 // ns forward from the latest time
	Back      uint64 // ns back from the latest time; wins over Wait
	N         uint64 // TryAcquire's n
}

type script = check.Script[setup, op]

// unitsPerToken is the contract's fixed-point scale: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

// replay runs s against a fresh implementation and a fresh model, stopping
// at the first call where they differ.
func replay(newImpl New, s script) check.Trace {
	st := s.Setup
	t := check.Trace{Setup: fmt.Sprintf("New(capacity=%s, ratePerSec=%s, nowNs=%s)", check.U(st.Capacity), check.U(st.Rate), check.U(st.Start))}
	b, p := check.Call(func() Bucket { return newImpl(st.Capacity, st.Rate, st.Start) })
	if p != nil {
		t.SetupPanic(p)
		return t
	}
	m := model.NewBucket(st.Capacity, st.Rate, st.Start)
	latest := st.Start
	for _, o := range s.Ops {
		now := o.at(latest)
		latest = max(latest, now)
		if o.Available {
			got, p := check.Call(func() uint64 { return b.Available(now) })
			if !t.Step(fmt.Sprintf("Available(nowNs=%s)", check.U(now)), check.U(got), check.U(m.Available(now)), p) {
				return t
			}
			continue
		}
		got, p := check.Call(func() bool { return b.TryAcquire(now, o.N) })
		if !t.Step(fmt.Sprintf("TryAcquire(nowNs=%s, n=%s)", check.U(now), check.U(o.N)), check.B(got), check.B(m.TryAcquire(now, o.N)), p) {
			return t
		}
	}
	return t
}

// interval is the time one token takes at rate, rounded up (at least 1 ns).
func interval(rate uint64) uint64 {
	if rate == 0 {
		return 1 << 40
	}
	return max(1, (1_000_000_000+rate-1)/rate)
}

func shrinkSetup(s setup) []setup {
	var out []setup
	for _, c := range check.Simpler(s.Capacity) {
		out = append(out, setup{c, s.Rate, s.Start})
	}
	for _, r := range check.Simpler(s.Rate) {
		out = append(out, setup{s.Capacity, r, s.Start})
	}
	for _, t := range check.Simpler(s.Start) {
		out = append(out, setup{s.Capacity, s.Rate, t})
	}
	return out
}

// merge drops call a, keeping the time it moved forward: b then waits
// a.Wait+b.Wait. Steps back are not folded.
func merge(a, b op) (op, bool) {
	if a.Back != 0 || b.Back != 0 {
		return b, false
	}
	b.Wait = check.Saturating(a.Wait, b.Wait)
	return b, true
}

func shrinkOp(o op) []op {
	var out []op
	if o.Available {
		c := o
		c.Available, c.N = false, 1
		out = append(out, c)
	}
	out = check.Vary(out, o, check.Simpler(o.Wait), func(c *op, v uint64) { c.Wait = v })
	out = check.Vary(out, o, check.Smaller(o.Back), func(c *op, v uint64) { c.Back = v })
	out = check.Vary(out, o, check.Simpler(o.N), func(c *op, v uint64) { c.N = v })
	return out
}

// domain says which corner of the input space a generator explores. The
// rules hold for every script it generates and every script its shrinker
// tries, so that a failure found in one corner stays in it: a shrunk
// counterexample of the fractional-tokens check still only makes sub-token
// steps, and is never blamed on a different mistake.
type domain struct {
	setup     func(r *rand.Rand) setup
	setupOK   func(s setup) bool
	drain     bool // the first call takes the whole capacity at the start time
	wait      func(r *rand.Rand, s setup) uint64
	back      float64 // chance of a step back in time
	aim       float64 // chance of a wait aimed at the nanosecond the next token arrives, or the one before
	available float64 // chance of an Available call
	// n draws TryAcquire's n; avail is what the model holds at that time.
	n      func(r *rand.Rand, s setup, avail uint64) uint64
	rules  rules
	maxOps int
}

// rules restrict the calls of a domain; see valid.
type rules struct {
	backward     bool // steps back in time allowed
	wholeRefills bool // every refill adds a whole number of tokens
	subToken     bool // every refill adds less than one token
	noClamp      bool // no refill reaches past the capacity
	nAtMostAvail bool // TryAcquire never asks for more than is there
	nIsOne       bool // TryAcquire (after the drain) asks for 1
}

// valid returns how many leading calls of s keep to d's rules (all of them
// if s is valid), replaying s on the model.
func (d domain) valid(s script) int {
	st := s.Setup
	if d.setupOK != nil && !d.setupOK(st) {
		return -1
	}
	m := model.NewBucket(st.Capacity, st.Rate, st.Start)
	latest := st.Start
	for i, o := range s.Ops {
		now := check.Saturating(latest, o.Wait)
		if o.Back > 0 {
			if !d.rules.backward {
				return i
			}
			now = latest - min(o.Back, latest)
		}
		if d.drain && i == 0 && (o.Available || o.N != st.Capacity || now != st.Start) {
			return i
		}
		if now > latest {
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

// gen draws a script, choosing each call with the model's state in view,
// and keeps its longest valid prefix.
func (d domain) gen(r *rand.Rand, size int) script {
	var s setup
	for {
		s = d.setup(r)
		if d.setupOK == nil || d.setupOK(s) {
			break
		}
	}
	m := model.NewBucket(s.Capacity, s.Rate, s.Start)
	latest := s.Start
	var ops []op
	if d.drain {
		ops = append(ops, op{N: s.Capacity})
		m.TryAcquire(latest, s.Capacity)
	}
	run := 0 // consecutive Available calls
	for range check.Ops(r, size, 1, d.maxOps) {
		o := op{Wait: d.wait(r, s)}
		if check.Chance(r, d.aim) {
			next := m.NsToNextToken()
			o.Wait = next - check.Pick(r, uint64(0), min(next, 1))
		}
		if d.rules.noClamp {
			o.Wait = min(o.Wait, m.RoomNs())
		}
		now := check.Saturating(latest, o.Wait)
		if d.rules.backward && check.Chance(r, d.back) {
			o.Wait, o.Back = 0, check.Pick(r, 1, interval(s.Rate)/2+1, interval(s.Rate)*check.Between(r, 1, 5), 1<<62)
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
	sc := script{Setup: s, Ops: ops}
	sc.Ops = sc.Ops[:max(0, d.valid(sc))]
	return sc
}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return check.Property[setup, op]{
		Gen:         d.gen,
		Valid:       func(s script) bool { return d.valid(s) == len(s.Ops) },
		ShrinkSetup: shrinkSetup,
		ShrinkOp:    shrinkOp,
		Merge:       merge,
		Replay:      func(s script) check.Trace { return replay(newImpl, s) },
		Explain:     explain,
	}
}

// startsFull explains a failure on the very first call, at the time the
// bucket was made, whatever the check: it did not start full.
const startsFull = "This is the first call, at the time the bucket was made: a new bucket starts full, with capacity tokens."

func explain(s script, t check.Trace, why string) string {
	if len(t.Steps) == 1 && s.Ops[0].at(s.Setup.Start) == s.Setup.Start {
		return startsFull
	}
	return why
}

// at returns the time of o when latest is the latest time so far.
func (o op) at(latest uint64) uint64 {
	if o.Back > 0 {
		return latest - min(o.Back, latest)
	}
	return check.Saturating(latest, o.Wait)
}
