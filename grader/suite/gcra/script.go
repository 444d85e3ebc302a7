package gcra

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand"

	"ratelab/grader/check"
	"ratelab/grader/model"
)

// setup is New's arguments.
type setup struct{ Rate, Burst, Start uint64 }

// op is one TryAcquire call. Its time is Wait after the latest time of the
// script so far (saturating at MaxUint64), or, if Back is non-zero, Back
// before it (stopping at 0).
type op struct {
	Wait uint64
	Back uint64 // wins over Wait
}

type script = check.Script[setup, op]

// at returns the time of o when latest is the latest time so far.
func (o op) at(latest uint64) uint64 {
	if o.Back > 0 {
		return latest - min(o.Back, latest)
	}
	return check.Saturating(latest, o.Wait)
}

// replay runs s against a fresh implementation and a fresh model, stopping
// at the first call where they differ.
func replay(newImpl New, s script) check.Trace {
	st := s.Setup
	t := check.Trace{Setup: fmt.Sprintf("New(ratePerSec=%s, burst=%s, nowNs=%s)", check.U(st.Rate), check.U(st.Burst), check.U(st.Start))}
	g, p := check.Call(func() Limiter { return newImpl(st.Rate, st.Burst, st.Start) })
	if p != nil {
		t.SetupPanic(p)
		return t
	}
	m := model.NewBucket(st.Burst, st.Rate, st.Start)
	latest := st.Start
	for _, o := range s.Ops {
		now := o.at(latest)
		latest = max(latest, now)
		got, p := check.Call(func() bool { return g.TryAcquire(now) })
		if !t.Step(fmt.Sprintf("TryAcquire(nowNs=%s)", check.U(now)), check.B(got), check.B(m.TryAcquire(now, 1)), p) {
			return t
		}
	}
	return t
}

const second = 1_000_000_000

// interval is one emission interval, 10^9/rate ns, rounded up.
func interval(rate uint64) uint64 { return (second + rate - 1) / max(rate, 1) }

// dividesSecond reports whether one interval is a whole number of ns.
func dividesSecond(rate uint64) bool { return rate > 0 && second%rate == 0 }

// inRange reports whether New's arguments are within the contract.
func inRange(s setup) bool {
	return s.Rate >= 1 && s.Rate <= second && s.Burst >= 1 && s.Burst <= 1_000_000
}

func shrinkSetup(s setup) []setup {
	var out []setup
	for _, b := range check.Smaller(s.Burst) {
		out = append(out, setup{s.Rate, b, s.Start})
	}
	for _, r := range check.Smaller(s.Rate) {
		out = append(out, setup{r, s.Burst, s.Start})
	}
	for _, t := range check.Simpler(s.Start) {
		out = append(out, setup{s.Rate, s.Burst, t})
	}
	return out
}

func shrinkOp(o op) []op {
	var out []op
	for _, w := range check.Simpler(o.Wait) {
		out = append(out, op{Wait: w, Back: o.Back})
	}
	for _, b := range check.Smaller(o.Back) {
		out = append(out, op{Wait: o.Wait, Back: b})
	}
	return out
}

// domain says which corner of the input space a property explores. Its
// rules hold for every script it generates and every script its shrinker
// tries, so that a failure found in one corner stays in it: a shrunk
// counterexample of the rounding check still uses a rate that does not
// divide a second, and one of the exactness check never steps back.
type domain struct {
	setup   func(r *rand.Rand) setup
	setupOK func(s setup) bool // on top of inRange
	// wait draws how long after the latest time the next call comes; m is
	// the model just before it.
	wait func(r *rand.Rand, s setup, m *model.Bucket) uint64
	// back draws a step back from latest, with probability backChance
	// (only if rules.backward).
	back       func(r *rand.Rand, s setup, latest uint64) uint64
	backChance float64
	rules      rules
	maxOps     int
}

// rules restrict the calls of a domain; see valid.
type rules struct {
	backward bool // steps back in time allowed
	// modest: every time t of the script keeps t*rate + burst*10^9 below
	// 2^63, so no product a GCRA might form (absolute times in units of
	// 1/rate ns, the schedule ahead of them) comes near 64 bits. Overflow
	// has a check of its own.
	modest bool
}

// modestTime reports whether t keeps to rules.modest for s.
func modestTime(s setup, t uint64) bool {
	hi, lo := bits.Mul64(t, s.Rate)
	return hi == 0 && lo < 1<<63-s.Burst*second
}

// valid returns how many leading calls of s keep to d's rules (all of them
// if s is valid), or -1 if the setup is out of the domain.
func (d domain) valid(s script) int {
	st := s.Setup
	if !inRange(st) || d.setupOK != nil && !d.setupOK(st) || d.rules.modest && !modestTime(st, st.Start) {
		return -1
	}
	latest := st.Start
	for i, o := range s.Ops {
		if !d.stepOK(st, latest, o) {
			return i
		}
		latest = max(latest, o.at(latest))
	}
	return len(s.Ops)
}

// stepOK reports whether o, coming when latest is the latest time, keeps
// to d's rules.
func (d domain) stepOK(s setup, latest uint64, o op) bool {
	if o.Back > 0 && !d.rules.backward {
		return false
	}
	return !d.rules.modest || modestTime(s, o.at(latest))
}

// gen draws a script, choosing each call with the model's state in view
// (so that calls land on the nanosecond a token comes, and just before),
// and keeps only calls that follow d's rules.
func (d domain) gen(r *rand.Rand, size int) script {
	var s setup
	for {
		s = d.setup(r)
		if inRange(s) && (d.setupOK == nil || d.setupOK(s)) && (!d.rules.modest || modestTime(s, s.Start)) {
			break
		}
	}
	m := model.NewBucket(s.Burst, s.Rate, s.Start)
	latest := s.Start
	var ops []op
	for range check.Ops(r, size, 1, d.maxOps) {
		var o op
		for range 8 {
			o = op{Wait: d.wait(r, s, m)}
			if d.rules.backward && check.Chance(r, d.backChance) {
				o = op{Back: max(1, d.back(r, s, latest))}
			}
			if d.stepOK(s, latest, o) {
				break
			}
		}
		if !d.stepOK(s, latest, o) {
			continue
		}
		now := o.at(latest)
		latest = max(latest, now)
		m.TryAcquire(now, 1)
		ops = append(ops, o)
	}
	return script{Setup: s, Ops: ops}
}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return check.Property[setup, op]{
		Gen:         d.gen,
		Valid:       func(s script) bool { return d.valid(s) == len(s.Ops) },
		ShrinkSetup: shrinkSetup,
		ShrinkOp:    shrinkOp,
		Merge: func(a, b op) (op, bool) { // drop a, keep the time it moved forward
			if a.Back != 0 || b.Back != 0 {
				return b, false
			}
			b.Wait = check.Saturating(a.Wait, b.Wait)
			return b, true
		},
		Replay:  func(s script) check.Trace { return replay(newImpl, s) },
		Explain: explain,
	}
}

// startsFull explains a failure on the very first call, at the time the
// limiter was made, whatever the check (unless that time is next to
// MaxUint64, where the check's own explanation stands).
const startsFull = "This is the first call, at the time the GCRA was made: like a token bucket that starts full, a new GCRA grants burst calls at once (its TAT starts at nowNs, not one interval or the whole burst later)."

// noTimePassed explains a failure where every call came at the time the
// limiter was made, whatever the check: only the burst is in question.
const noTimePassed = "All these calls come at the time the GCRA was made, so no time has passed: it must grant exactly burst of them and refuse the rest. The burst tolerance is (burst−1) intervals: a TAT up to that far ahead of now still conforms."

func explain(s script, t check.Trace, why string) string {
	if math.MaxUint64-s.Setup.Start < 1_000_000 {
		return why // next to the end of time, overflow is the likelier story
	}
	latest := s.Setup.Start
	for _, o := range s.Ops[:len(t.Steps)] {
		if o.at(latest) != s.Setup.Start {
			return why
		}
	}
	if len(t.Steps) == 1 {
		return startsFull
	}
	return noTimePassed
}
