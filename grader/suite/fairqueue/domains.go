package fairqueue

import (
	"math/rand"

	"ratelab/grader/check"
)

// domain is a check.Domain of fair queue scripts.
type domain struct {
	aim      // the check it is for
	quantum  func(r *rand.Rand) uint64
	sessions int // ids drawn from [0, sessions)
	cost     func(r *rand.Rand, q uint64) uint64
	pop, len float64 // chances of a Pop and of a Len
	rules    rules
	maxOps   int
	// swarm: each script first draws which features it uses (see
	// swarmed).
	swarm bool
}

type aim = check.Aim[setup, op]

// rules restrict the calls of a domain; see Valid.
type rules struct {
	upToQuantum bool // every cost is at most quantum
	equalCost   bool // every cost is quantum
	pushFirst   bool // no Push after the first Pop
	oneCost     bool // all of a session's commands cost the same (FIFO order cannot show)
	maxQuantum  uint64
}

// Valid returns how many leading calls of s keep to d's rules.
func (d domain) Valid(s script) int {
	q := s.Setup.Quantum
	if q < 1 || q > 1<<32 || d.rules.maxQuantum > 0 && q > d.rules.maxQuantum {
		return -1
	}
	popped := false
	costOf := map[uint32]uint64{}
	for i, o := range s.Ops {
		if o.Pop || o.Len {
			popped = popped || o.Pop
			continue
		}
		switch {
		case o.Cost < 1 || o.Cost > 64*q:
			return i
		case d.rules.upToQuantum && o.Cost > q, d.rules.equalCost && o.Cost != q:
			return i
		case d.rules.pushFirst && popped:
			return i
		case int(o.Session) >= d.sessions:
			return i
		case d.rules.oneCost && costOf[o.Session] != 0 && costOf[o.Session] != o.Cost:
			return i
		}
		costOf[o.Session] = o.Cost
	}
	return len(s.Ops)
}

// Gen draws a script and keeps its longest valid prefix.
func (d domain) Gen(r *rand.Rand, size int) script {
	if d.swarm {
		d = d.swarmed(r)
	}
	q := d.quantum(r)
	n := check.Ops(r, size, 2, d.maxOps)
	var ops []op
	popped := false
	costOf := map[uint32]uint64{}
	for i := range n {
		switch {
		case d.rules.pushFirst && !popped && i < n/2:
		case check.Chance(r, d.pop) || d.rules.pushFirst && popped:
			if check.Chance(r, d.len/(d.len+d.pop)) {
				ops = append(ops, op{Len: true})
			} else {
				ops = append(ops, op{Pop: true})
				popped = true
			}
			continue
		}
		sess := uint32(r.Intn(d.sessions))
		c := d.cost(r, q)
		if d.rules.oneCost {
			if costOf[sess] == 0 {
				costOf[sess] = c
			}
			c = costOf[sess]
		}
		ops = append(ops, op{Session: sess, Cost: c})
	}
	return check.ValidPrefix(d, script{Setup: setup{q}, Ops: ops})
}

// swarmed returns d with the features of one script drawn (swarm
// testing): how many sessions it uses, how often it pops, whether it asks
// Len, and which costs it sends (all within a quantum, at the quantum's
// edges, or d's own mix), so that scripts differ in kind, not only in
// their numbers.
func (d domain) swarmed(r *rand.Rand) domain {
	d.sessions = 1 + r.Intn(d.sessions)
	d.pop = check.Pick(r, 0.25, 0.45, 0.65)
	if check.Chance(r, 0.5) {
		d.len = 0
	}
	switch r.Intn(3) {
	case 0:
		d.cost = func(r *rand.Rand, q uint64) uint64 { return check.Between(r, 1, q) }
	case 1:
		d.cost = func(r *rand.Rand, q uint64) uint64 { return check.Pick(r, 1, q-min(q-1, 1), q, q+1, 2*q, 64*q) }
	}
	return d
}

// base is what every property of the suite shares: how its scripts
// shrink and how their failures are explained.
var base = check.Property[setup, op]{ShrinkSetup: shrinkSetup, ShrinkOp: shrinkOp}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return d.aim.Property(d, base, func(s script) check.Trace { return replay(newImpl, s) })
}

func smallQuantum(r *rand.Rand) uint64 {
	return check.Pick(r, 1, 2, 3, 5, 10, check.Between(r, 1, 100))
}

func upTo(r *rand.Rand, q uint64) uint64 { return check.Pick(r, q, 1, check.Between(r, 1, q)) }

// A session's credit shows most directly on a command just above the
// quantum, which the credit kept pays for a turn early: the deficit
// domain draws some.
var deficitDomain = domain{
	aim:     aim{Check: "deficit-reset", Explain: explainDeficit},
	quantum: smallQuantum, sessions: 3, pop: 0.4, len: 0.1,
	cost: func(r *rand.Rand, q uint64) uint64 {
		return check.Pick(r, q, 1, check.Between(r, 1, q), q+1, check.Between(r, 1, 2*q))
	},
	rules: rules{maxQuantum: 100}, maxOps: 24,
}

var largeDomain = domain{
	aim:     aim{Check: "large-cost", Explain: explainLarge},
	quantum: smallQuantum, sessions: 4, pop: 0.45, len: 0.1,
	cost: func(r *rand.Rand, q uint64) uint64 {
		return check.Pick(r, q+1, 2*q, check.Between(r, q+1, 64*q), 64*q, check.Between(r, 1, q))
	},
	rules: rules{oneCost: true, maxQuantum: 100}, maxOps: 24,
}

var roundDomain = domain{
	aim:     aim{Check: "round-order", Explain: explainRound},
	quantum: smallQuantum, sessions: 6, cost: func(_ *rand.Rand, q uint64) uint64 { return q }, pop: 0.4, len: 0.1,
	rules: rules{equalCost: true, maxQuantum: 100}, maxOps: 24,
}

var turnDomain = domain{
	aim:     aim{Check: "turn", Explain: explainTurn},
	quantum: smallQuantum, sessions: 4, cost: upTo, pop: 0.5,
	rules: rules{upToQuantum: true, pushFirst: true, oneCost: true, maxQuantum: 100}, maxOps: 24,
}

var fifoDomain = domain{
	aim:     aim{Check: "fifo", Explain: explainFIFO},
	quantum: smallQuantum, sessions: 3, cost: upTo, pop: 0.4, len: 0.05,
	rules: rules{upToQuantum: true, maxQuantum: 100}, maxOps: 24,
}

var exactDomain = domain{
	aim:      aim{Check: "exactness"},
	quantum:  func(r *rand.Rand) uint64 { return check.Pick(r, 1, 2, 3, 7, 100, 1<<32, check.Between(r, 1, 12)) },
	sessions: 5, pop: 0.45, len: 0.15,
	cost: func(r *rand.Rand, q uint64) uint64 {
		return check.Pick(r, q, 1, check.Between(r, 1, q), check.Between(r, 1, 3*q), 64*q)
	},
	maxOps: 24, swarm: true,
}
