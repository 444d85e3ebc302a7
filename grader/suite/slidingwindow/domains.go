package slidingwindow

import (
	"math"
	"math/rand"

	"ratelab/grader/check"
)

// maxBuckets bounds the buckets of generated setups: memory is O(buckets).
const maxBuckets = 4096

// domain is a check.Domain of the sliding window's scripts.
type domain struct {
	aim     // the check it is for
	setup   func(r *rand.Rand) setup
	setupOK func(s setup) bool // on top of the contract's and maxBuckets
	count   float64            // chance of a Count call
	// jump draws how many buckets on the next call comes; m is the model
	// just before it.
	jump  func(r *rand.Rand, s setup, m *model) uint64
	back  check.StepBack[setup] // steps back in time; none if zero
	rules rules
	// swarm: each script first draws how often it calls Count and steps
	// back, and which jumps it makes (see swarmJump), so that some scripts
	// are all TryAcquire, some all in one bucket, some all whole windows.
	swarm  bool
	maxOps int
}

type aim = check.Aim[setup, op]

// rules restrict the calls of a domain; see stepOK.
type rules struct {
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
	if o.Back > 0 && !d.back.Allowed() {
		return false
	}
	now := o.at(latest, m.BucketNs)
	if d.rules.moderate && now >= moderateLimit {
		return false
	}
	cur := m.BucketAt(now)
	for id, c := range m.Accepted {
		if c == 0 || id > cur {
			continue
		}
		if d.rules.noEdge && m.edge(cur-id) {
			return false
		}
		if d.rules.noDropInJump && cur-m.Cur >= 2 && m.InWindow(id, m.Cur) && !m.InWindow(id, cur) {
			return false
		}
	}
	return !d.rules.noRejects || o.Count || m.CountAt(cur) < m.Limit
}

// Valid returns how many leading calls of s keep to d's rules (all of them
// if s is valid), or -1 if the setup is out of the domain.
func (d domain) Valid(s script) int {
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

// offset draws where in its bucket a call lands: the first or the last
// nanosecond, or anywhere.
func offset(r *rand.Rand, bucketNs uint64) uint64 {
	return check.Pick(r, 0, 0, bucketNs-1, bucketNs-1, check.Between(r, 0, bucketNs-1))
}

// Gen draws a script call by call with the model in view, keeping only
// calls that follow d's rules. In a domain without refusals, a TryAcquire
// the model would refuse becomes a Count.
func (d domain) Gen(r *rand.Rand, size int) script {
	if d.swarm {
		d.count = check.Pick(r, 0, 0.1, d.count, 0.7)
		if d.back.Allowed() {
			d.back.Chance = check.Pick(r, 0, d.back.Chance, 0.4)
		}
		d.jump = swarmJump(r, d.jump)
	}
	s := check.DrawUntil(r, d.setup, d.setupValid)
	m := newModel(s)
	latest := uint64(0)
	var ops []op
	for range check.Ops(r, size, 1, d.maxOps) {
		o, ok := check.DrawTries(r, 8, func(r *rand.Rand) op {
			o := op{Count: check.Chance(r, d.count), Jump: d.jump(r, s, m), Off: offset(r, m.BucketNs)}
			if back, ok := d.back.Draw(r, s, latest); ok {
				o = op{Count: o.Count, Back: max(1, back)}
			}
			if d.rules.noRejects && !o.Count && refuses(m, o.at(latest, m.BucketNs)) {
				o.Count = true
			}
			return o
		}, func(o op) bool { return d.stepOK(m, latest, o) })
		if !ok {
			continue
		}
		latest = m.apply(o, latest)
		ops = append(ops, o)
	}
	return script{Setup: s, Ops: ops}
}

// base is what every property of the suite shares: how its scripts
// shrink and how their failures are explained.
var base = check.Property[setup, op]{ShrinkSetup: shrinkSetup, ShrinkOp: shrinkOp}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return d.aim.Property(d, base, func(s script) check.Trace { return replay(newImpl, s) })
}

// smallBuckets draws a small number of buckets, where every edge is a few
// calls away.
func smallBuckets(r *rand.Rand) int { return check.Pick(r, 1, 2, 2, 3, 4, int(check.Between(r, 1, 8))) }

// bucketLen draws a bucket length: often 1 ns, so times are bucket ids.
func bucketLen(r *rand.Rand) uint64 {
	return check.Pick(r, 1, 1, 2, 3, 10, 1000, check.Between(r, 1, 1000), check.Between(r, 1, 1e9))
}

// window returns windowNs for k buckets of b ns, often with a remainder
// that k does not divide.
func window(r *rand.Rand, k int, b uint64) uint64 {
	return uint64(k)*b + check.Pick(r, 0, check.Between(r, 0, uint64(k-1)), uint64(k-1))
}

// swarmJump draws the jumps one script makes: all those of jump, or only
// within a bucket or to the next, or only about a window (buckets−1,
// buckets, buckets+1 or twice that).
func swarmJump(r *rand.Rand, jump func(r *rand.Rand, s setup, m *model) uint64) func(r *rand.Rand, s setup, m *model) uint64 {
	switch r.Intn(3) {
	case 1:
		return func(r *rand.Rand, _ setup, _ *model) uint64 { return check.Pick[uint64](r, 0, 0, 1) }
	case 2:
		return func(r *rand.Rand, s setup, _ *model) uint64 {
			k := uint64(s.Buckets)
			return check.Pick(r, 0, k-1, k, k+1, 2*k)
		}
	}
	return jump
}

// backBuckets steps back to an earlier nanosecond of the bucket, to the
// last nanosecond of an earlier bucket, or to 0.
func backBuckets(r *rand.Rand, s setup, latest uint64) uint64 {
	b := s.bucketNs()
	into := latest % b
	return check.Pick(r, 1, max(into, 1), into+1, into+1+b*check.Between(r, 0, uint64(s.Buckets)), latest)
}

var rejectedDomain = domain{
	aim: aim{Check: "rejected-counted", Explain: explainRejected},
	setup: func(r *rand.Rand) setup {
		k, b := smallBuckets(r), bucketLen(r)
		return setup{Limit: uint32(check.Pick(r, 0, 1, 2, 3, check.Between(r, 1, 8))), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.3,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		k := uint64(s.Buckets)
		return check.Pick(r, 0, 0, 0, 1, 1, 2, k+1, check.Between(r, 0, 2*k))
	},
	rules:  rules{moderate: true, noEdge: true, noDropInJump: true},
	maxOps: 40,
}

var staleDomain = domain{
	aim: aim{Check: "stale-bucket", Explain: explainStale},
	setup: func(r *rand.Rand) setup {
		k := check.Pick(r, 2, 3, 4, int(check.Between(r, 2, 10)), int(check.Between(r, 10, 100)), 1000)
		b := bucketLen(r)
		return setup{Limit: uint32(check.Pick(r, check.Between(r, 2, 30), 1000, 1<<20)), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.4,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		k := uint64(s.Buckets)
		return check.Pick(r, 0, 0, 1, 1, 2, k+1, k+2, 2*k, 2*k+1, 3*k+check.Between(r, 0, k-1), check.Between(r, 2, 3*k), check.Between(r, k, 1000*k))
	},
	rules:  rules{moderate: true, noRejects: true, noEdge: true},
	maxOps: 30,
}

var edgeDomain = domain{
	aim: aim{Check: "window-edge", Explain: explainEdge},
	setup: func(r *rand.Rand) setup {
		k := smallBuckets(r)
		b := check.Pick(r, 1, 2, 3, 7, check.Between(r, 1, 1000))
		return setup{Limit: uint32(check.Pick(r, check.Between(r, 3, 50), 1000, 1<<20)), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.5,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		k := uint64(s.Buckets)
		return check.Pick(r, 0, 1, 1, 1, k-1, k, k+1)
	},
	rules:  rules{moderate: true, noRejects: true, noDropInJump: true},
	maxOps: 40,
}

var backwardDomain = domain{
	aim: aim{Check: "backward-time", Explain: explainBackward},
	setup: func(r *rand.Rand) setup {
		k, b := smallBuckets(r), bucketLen(r)
		return setup{Limit: uint32(check.Pick(r, check.Between(r, 3, 30), 1000)), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.4,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		return check.Pick(r, 0, 0, 1, 1, 2, check.Between(r, 0, uint64(s.Buckets)))
	},
	back:   check.StepBack[setup]{Chance: 0.3, By: backBuckets},
	rules:  rules{moderate: true, noRejects: true, noEdge: true, noDropInJump: true},
	maxOps: 30,
}

var overflowDomain = domain{
	aim: aim{Check: "overflow", Explain: explainOverflow},
	setup: func(r *rand.Rand) setup {
		k := check.Pick(r, 2, 3, int(check.Between(r, 2, 8)), 64, 1000)
		var w uint64
		switch r.Intn(4) {
		case 0, 1: // bucketNs = 1 (or 1 plus a remainder): ids reach MaxUint64
			w = uint64(k) + check.Pick(r, 0, uint64(k-1))
		case 2: // a few buckets spanning all of time
			w = check.Pick(r, math.MaxUint64, math.MaxUint64-1, 1<<63, uint64(k)*(math.MaxUint64/uint64(k)))
		default:
			w = window(r, k, check.Pick(r, 2, 3, check.Between(r, 1, 1000)))
		}
		return setup{Limit: uint32(check.Pick(r, 1, 2, 3, 10, math.MaxUint32, math.MaxUint32-1)), WindowNs: w, Buckets: k}
	},
	count: 0.5,
	jump: func(r *rand.Rand, s setup, m *model) uint64 {
		last := math.MaxUint64 / m.BucketNs // the bucket of the last nanosecond
		toEnd := last - min(m.Cur, last)
		// Near the end: the last bucket, and the buckets before it, where
		// a sum id+buckets wraps but id is no marker.
		near := toEnd - min(toEnd, check.Between(r, 1, m.K+1))
		return check.Pick(r, 0, 0, 1, toEnd, toEnd, near, near, toEnd-min(toEnd, m.K), math.MaxUint64, check.Between(r, 0, toEnd))
	},
	rules:  rules{noRejects: true, noEdge: true, noDropInJump: true},
	maxOps: 16,
}

var exactDomain = domain{
	aim: aim{Check: "exactness"},
	setup: func(r *rand.Rand) setup {
		k := check.Pick(r, 1, 2, 3, int(check.Between(r, 1, 10)), int(check.Between(r, 1, 100)))
		b := check.Pick(r, 1, 2, check.Between(r, 1, 100), check.Between(r, 1, 1e6))
		return setup{Limit: uint32(check.Pick(r, 0, 1, 2, 3, check.Between(r, 1, 10), 100, math.MaxUint32)), WindowNs: window(r, k, b), Buckets: k}
	},
	count: 0.35,
	jump: func(r *rand.Rand, s setup, _ *model) uint64 {
		k := uint64(s.Buckets)
		return check.Pick(r, 0, 0, 0, 1, 1, 2, k-1, k, k+1, check.Between(r, 0, 3*k))
	},
	back:   check.StepBack[setup]{Chance: 0.15, By: backBuckets},
	rules:  rules{moderate: true},
	swarm:  true,
	maxOps: 40,
}
