package slidingwindow

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand"
	"strconv"

	"ratelab/grader/check"
)

// setup is New's arguments.
type setup struct {
	Limit    uint32
	WindowNs uint64
	Buckets  int
}

func (s setup) bucketNs() uint64 { return s.WindowNs / uint64(s.Buckets) }

// op is one call. Unless Back is non-zero, its time is in the bucket Jump
// buckets after the one of the latest time so far, Off nanoseconds into it
// (at most its last nanosecond), and never before the latest time; times
// past MaxUint64 saturate. If Back is non-zero, the time is Back before the
// latest time (stopping at 0).
type op struct {
	Count bool // Count instead of TryAcquire
	Jump  uint64
	Off   uint64
	Back  uint64
}

type script = check.Script[setup, op]

// at returns the time of o when latest is the latest time so far.
func (o op) at(latest, bucketNs uint64) uint64 {
	if o.Back > 0 {
		return latest - min(o.Back, latest)
	}
	b, carry := bits.Add64(latest/bucketNs, o.Jump, 0)
	hi, lo := bits.Mul64(b, bucketNs)
	t, carry2 := bits.Add64(lo, min(o.Off, bucketNs-1), 0)
	if carry != 0 || hi != 0 || carry2 != 0 {
		return math.MaxUint64
	}
	return max(t, latest)
}

func limitString(l uint32) string {
	if l == math.MaxUint32 {
		return "math.MaxUint32"
	}
	return check.U(uint64(l))
}

func setupLine(s setup) string {
	return fmt.Sprintf("New(limit=%s, windowNs=%s, buckets=%d) // bucketNs = %s", limitString(s.Limit), check.U(s.WindowNs), s.Buckets, check.U(s.bucketNs()))
}

// replay runs s against a fresh implementation and a fresh model, stopping
// at the first call where they differ.
func replay(newImpl New, s script) check.Trace {
	st := s.Setup
	t := check.Trace{Setup: setupLine(st)}
	w, p := check.Call(func() Window { return newImpl(st.Limit, st.WindowNs, st.Buckets) })
	if p != nil {
		t.SetupPanic(p)
		return t
	}
	m := newModel(st)
	latest := uint64(0)
	for _, o := range s.Ops {
		now := o.at(latest, m.bucketNs)
		latest = max(latest, now)
		if o.Count {
			got, p := check.Call(func() uint32 { return w.Count(now) })
			want := m.count(now)
			if !t.Step(fmt.Sprintf("Count(nowNs=%s)", check.U(now)), strconv.FormatUint(uint64(got), 10), strconv.FormatUint(uint64(want), 10), p) {
				return t
			}
			continue
		}
		got, p := check.Call(func() bool { return w.TryAcquire(now) })
		if !t.Step(fmt.Sprintf("TryAcquire(nowNs=%s)", check.U(now)), check.B(got), check.B(m.tryAcquire(now)), p) {
			return t
		}
	}
	return t
}

// maxBuckets bounds the buckets of generated setups: memory is O(buckets).
const maxBuckets = 4096

func shrinkSetup(s setup) []setup {
	var out []setup
	for _, l := range check.Smaller(uint64(s.Limit)) {
		out = append(out, setup{uint32(l), s.WindowNs, s.Buckets})
	}
	k, b, rem := uint64(s.Buckets), s.bucketNs(), s.WindowNs%uint64(s.Buckets)
	// Fewer buckets of the same length, then shorter buckets, keeping
	// the remainder (if it still fits) or dropping it.
	for _, k2 := range check.SmallerWithin(k, 1) {
		out = append(out, setup{s.Limit, k2*b + min(rem, k2-1), int(k2)})
	}
	for _, b2 := range check.SmallerWithin(b, 1) {
		out = append(out, setup{s.Limit, k*b2 + rem, s.Buckets}, setup{s.Limit, k * b2, s.Buckets})
	}
	if rem > 0 {
		out = append(out, setup{s.Limit, k * b, s.Buckets})
	}
	for _, w := range check.Simpler(s.WindowNs) {
		out = append(out, setup{s.Limit, w, s.Buckets})
	}
	return out
}

func shrinkOp(o op) []op {
	var out []op
	if !o.Count {
		c := o
		c.Count = true
		out = append(out, c)
	}
	jumps := check.Simpler(o.Jump)
	if o.Jump <= 64 {
		// A jump is a count of buckets, and which count matters (the
		// window's length, once more, twice more): try every one.
		jumps = nil
		for j := range o.Jump {
			jumps = append(jumps, j)
		}
	}
	out = check.Vary(out, o, jumps, func(c *op, v uint64) { c.Jump = v })
	out = check.Vary(out, o, check.Smaller(o.Off), func(c *op, v uint64) { c.Off = v })
	out = check.Vary(out, o, check.Smaller(o.Back), func(c *op, v uint64) { c.Back = v })
	return out
}

// domain says which corner of the input space a property explores. Its
// rules hold for every script it generates and every script its shrinker
// tries, so that a failure found in one corner stays in it.
type domain struct {
	setup   func(r *rand.Rand) setup
	setupOK func(s setup) bool // on top of the contract's and maxBuckets
	count   float64            // chance of a Count call
	// jump draws how many buckets on the next call comes; m is the model
	// just before it.
	jump func(r *rand.Rand, s setup, m *model) uint64
	// back draws a step back from latest, with probability backChance
	// (only if rules.backward).
	back       func(r *rand.Rand, s setup, latest uint64) uint64
	backChance float64
	rules      rules
	maxOps     int
}

// rules restrict the calls of a domain; see stepOK.
type rules struct {
	backward bool // steps back in time allowed
	// moderate: every time, and windowNs, is below 2^62, so no bucket id
	// or end-of-bucket time comes near MaxUint64 (overflow's business).
	moderate bool
	// noRejects: every TryAcquire is accepted (how refusals are counted
	// is rejected-counted's business).
	noRejects bool
	// noEdge: no call is made while a bucket holding accepted calls is on
	// the window's edge (see model.edge): where a window one bucket too
	// narrow or too wide, or measured in nanoseconds, shows (window-edge's
	// business). It also needs two buckets or more: with one, the window
	// is its own edge, and a window one bucket too narrow is empty.
	noEdge bool
	// noDropInJump: when the current bucket moves on by more than one,
	// no bucket holding accepted calls leaves the window: the buckets
	// that leave by a jump are the stale ones (stale-bucket's business).
	noDropInJump bool
}

const moderateLimit = 1 << 62

func (d domain) setupValid(s setup) bool {
	if s.Buckets < 1 || s.Buckets > maxBuckets || s.WindowNs < uint64(s.Buckets) {
		return false
	}
	if d.rules.moderate && s.WindowNs >= moderateLimit {
		return false
	}
	if d.rules.noEdge && s.Buckets < 2 {
		return false // with one bucket, the window is all edge
	}
	return d.setupOK == nil || d.setupOK(s)
}

// stepOK reports whether o, coming when latest is the latest time and m is
// the model before it, keeps to d's rules. It does not change m.
func (d domain) stepOK(m *model, latest uint64, o op) bool {
	if o.Back > 0 && !d.rules.backward {
		return false
	}
	now := o.at(latest, m.bucketNs)
	if d.rules.moderate && now >= moderateLimit {
		return false
	}
	cur := m.bucketAt(now)
	for id, c := range m.accepted {
		if c == 0 || id > cur {
			continue
		}
		if d.rules.noEdge && m.edge(cur-id) {
			return false
		}
		if d.rules.noDropInJump && cur-m.cur >= 2 && m.inWindow(id, m.cur) && !m.inWindow(id, cur) {
			return false
		}
	}
	return !d.rules.noRejects || o.Count || m.countAt(cur) < m.limit
}

// valid returns how many leading calls of s keep to d's rules (all of them
// if s is valid), or -1 if the setup is out of the domain.
func (d domain) valid(s script) int {
	if !d.setupValid(s.Setup) {
		return -1
	}
	m := newModel(s.Setup)
	latest := uint64(0)
	for i, o := range s.Ops {
		if !d.stepOK(m, latest, o) {
			return i
		}
		latest = m.apply(o, latest)
	}
	return len(s.Ops)
}

// apply makes the call o on the model and returns the new latest time.
func (m *model) apply(o op, latest uint64) uint64 {
	now := o.at(latest, m.bucketNs)
	if o.Count {
		m.count(now)
	} else {
		m.tryAcquire(now)
	}
	return max(latest, now)
}

// offset draws where in its bucket a call lands: the first or the last
// nanosecond, or anywhere.
func offset(r *rand.Rand, bucketNs uint64) uint64 {
	return check.Pick(r, 0, 0, bucketNs-1, bucketNs-1, check.Between(r, 0, bucketNs-1))
}

// gen draws a script call by call with the model in view, keeping only
// calls that follow d's rules. In a domain without refusals, a TryAcquire
// the model would refuse becomes a Count.
func (d domain) gen(r *rand.Rand, size int) script {
	var s setup
	for {
		s = d.setup(r)
		if d.setupValid(s) {
			break
		}
	}
	m := newModel(s)
	latest := uint64(0)
	var ops []op
	for range check.Ops(r, size, 1, d.maxOps) {
		ok := false
		var o op
		for range 8 {
			o = op{Count: check.Chance(r, d.count), Jump: d.jump(r, s, m), Off: offset(r, m.bucketNs)}
			if d.rules.backward && check.Chance(r, d.backChance) {
				o = op{Count: o.Count, Back: max(1, d.back(r, s, latest))}
			}
			if d.rules.noRejects && !o.Count && m.countAt(m.bucketAt(o.at(latest, m.bucketNs))) >= m.limit {
				o.Count = true
			}
			if ok = d.stepOK(m, latest, o); ok {
				break
			}
		}
		if !ok {
			continue
		}
		latest = m.apply(o, latest)
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
		Replay:      func(s script) check.Trace { return replay(newImpl, s) },
	}
}
