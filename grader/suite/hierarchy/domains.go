package hierarchy

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand"

	"ratelab/grader/check"
)

// domain is a check.Domain of the hierarchy's scripts.
type domain struct {
	aim                              // the check it is for
	start  func(r *rand.Rand) uint64 // nil: every script starts at 0
	tree   func(r *rand.Rand) []op   // the Adds that build the tree first
	drain  bool                      // the first call after the tree takes all of the last node
	wait   func(r *rand.Rand, m *model) uint64
	back   check.StepBack[setup] // steps back in time; none if zero
	avail  float64               // chance of an Available call
	bad    float64               // chance of a bad Add or a call on an id never returned
	later  float64               // chance of a valid Add among the calls
	node   func(r *rand.Rand, m *model) int
	n      func(r *rand.Rand, m *model, node int, avail uint64) uint64
	rules  rules
	maxOps int
	// swarm: each script first draws which features it uses (see
	// swarmed).
	swarm bool
}

type aim = check.Aim[setup, op]

// rules restrict the calls of a domain; see Valid.
type rules struct {
	badIDs       bool   // bad Adds and ids never returned allowed
	noTime       bool   // the clock never moves
	wholeRefills bool   // every node earns whole tokens at every refill
	subToken     bool   // every node earns less than a token at every refill
	noRefusal    bool   // TryAcquire never asks for more than Available
	leafOnly     bool   // calls only on the newest node
	chain        bool   // the tree is one chain, every node alike
	maxCap       uint64 // Add's capacity at most this (0: any)
	minCap       uint64 // ... and at least this
}

var unitsBig = big.NewInt(1_000_000_000)

// Valid returns how many leading calls of s keep to d's rules.
func (d domain) Valid(s script) int {
	m := newModel(s.Setup.Start)
	latest := s.Setup.Start
	for i, o := range s.Ops {
		if o.Kind == add {
			p := m.Problem(o.Node)
			switch {
			case o.Wait != 0 || o.Back != 0:
				return i
			case p != "" && !d.rules.badIDs:
				return i
			case d.rules.maxCap > 0 && (o.N > d.rules.maxCap || o.N < d.rules.minCap):
				return i
			case d.rules.chain && !d.chainLink(m, o):
				return i
			}
			m.Add(o.Node, o.N, o.Rate)
			continue
		}
		now := o.At(latest)
		if o.Back > 0 && !d.back.Allowed() || d.rules.noTime && now > latest {
			return i
		}
		if !m.Valid(o.Node) && !d.rules.badIDs || d.rules.leafOnly && o.Node != m.Len()-1 {
			return i
		}
		if now > latest {
			for i := range m.Len() {
				hi, lo := bits.Mul64(now-latest, m.Rate(i))
				earned := new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64), new(big.Int).SetUint64(lo))
				if d.rules.wholeRefills && new(big.Int).Rem(earned, unitsBig).Sign() != 0 || d.rules.subToken && earned.Cmp(unitsBig) >= 0 {
					return i
				}
			}
		}
		latest = max(latest, now)
		if o.Kind == available {
			m.Available(o.Node, now)
			continue
		}
		if d.rules.noRefusal && m.Valid(o.Node) && o.N > m.Available(o.Node, now) {
			return i
		}
		m.TryAcquire(o.Node, now, o.N)
	}
	return len(s.Ops)
}

// chainLink reports whether Add o extends a chain of alike nodes: its
// parent is the newest node, its capacity and rate those of the first.
func (d domain) chainLink(m *model, o op) bool {
	if o.Node != m.Len()-1 {
		return false
	}
	if m.Len() == 0 {
		return true
	}
	c := new(big.Int).Mul(new(big.Int).SetUint64(o.N), unitsBig)
	return c.Cmp(m.Cap(0)) == 0 && o.Rate == m.Rate(0)
}

// Gen draws a script with the model's state in view and keeps its longest
// valid prefix.
func (d domain) Gen(r *rand.Rand, size int) script {
	if d.swarm {
		d = d.swarmed(r)
	}
	start := uint64(0)
	if d.start != nil {
		start = d.start(r)
	}
	m := newModel(start)
	ops := d.tree(r)
	for _, o := range ops {
		m.Add(o.Node, o.N, o.Rate)
	}
	latest := start
	if d.drain && m.Len() > 0 {
		leaf := m.Len() - 1
		o := op{Node: leaf, N: m.Available(leaf, latest)}
		m.TryAcquire(leaf, latest, o.N)
		ops = append(ops, o)
	}
	for range check.Ops(r, size, 1, d.maxOps) {
		if check.Chance(r, d.later) && m.Len() > 0 {
			o := op{Kind: add, Node: r.Intn(m.Len()+1) - 1, N: check.Between(r, 1, 10), Rate: check.Between(r, 1, 5)}
			if m.Problem(o.Node) == "" {
				m.Add(o.Node, o.N, o.Rate)
				ops = append(ops, o)
				continue
			}
		}
		if check.Chance(r, d.bad) {
			if check.Chance(r, 0.5) {
				o := op{Kind: add, Node: check.Pick(r, -2, -7, m.Len(), m.Len()+3, 1<<40, -(1 << 40), deepest(m)), N: check.Between(r, 1, 10), Rate: check.Between(r, 1, 5)}
				m.Add(o.Node, o.N, o.Rate)
				ops = append(ops, o)
				continue
			}
		}
		o := op{When: check.When{Wait: d.wait(r, m)}}
		if d.node != nil {
			o.Node = d.node(r, m)
		} else if m.Len() > 0 {
			o.Node = r.Intn(m.Len())
		}
		if d.rules.badIDs && check.Chance(r, d.bad) {
			o.Node = check.Pick(r, -1, -2, m.Len(), m.Len()+1, 1<<40)
		}
		now := o.At(latest)
		if back, ok := d.back.Draw(r, setup{start}, latest); ok {
			o.Wait, o.Back = 0, back
			now = o.At(latest)
		}
		latest = max(latest, now)
		avail := m.Available(o.Node, now)
		if check.Chance(r, d.avail) {
			o.Kind = available
		} else {
			o.N = d.n(r, m, o.Node, avail)
			m.TryAcquire(o.Node, now, o.N)
		}
		ops = append(ops, o)
	}
	return check.ValidPrefix(d, script{Setup: setup{start}, Ops: ops})
}

// swarmed returns d with the features of one script drawn (swarm
// testing): its tree (d's own, a small one, or a chain of alike nodes),
// how time passes (d's own mix, bursts of calls at the same time, or long
// idles that fill the nodes), how often it reads Available, adds nodes
// later, and whether it ever asks for more than is there.
func (d domain) swarmed(r *rand.Rand) domain {
	switch r.Intn(3) {
	case 0:
		d.tree = randomTree(3, 1, 5, 1, 10)
	case 1:
		d.tree = chain(func(r *rand.Rand) (uint64, uint64) { return check.Between(r, 1, 20), check.Between(r, 1, 2_000_000) })
	}
	wait := d.wait
	switch r.Intn(3) {
	case 0:
		d.wait = func(r *rand.Rand, m *model) uint64 {
			if check.Chance(r, 0.7) {
				return 0
			}
			return wait(r, m)
		}
	case 1:
		d.wait = func(r *rand.Rand, m *model) uint64 {
			i := interval(m.Rate(r.Intn(m.Len())))
			return check.Between(r, 4*i, 100*i)
		}
	}
	d.avail = check.Pick(r, 0, 0.3, 0.6)
	d.later = check.Pick(r, 0, d.later, 0.3)
	if check.Chance(r, 0.3) {
		d.n = upTo
	}
	return d
}

// base is what every property of the suite shares: how its scripts
// shrink and how their failures are explained.
var base = check.Property[setup, op]{ShrinkSetup: shrinkSetup, ShrinkOp: shrinkOp, Merge: merge}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return d.aim.Property(d, base, func(s script) check.Trace { return replay(newImpl, s) })
}

// Trees.

// randomTree draws a tree of up to maxNodes nodes (at least 2), each under
// Root or an earlier node, with capacities in [minCap, maxCap] and rates
// in [minRate, maxRate].
func randomTree(maxNodes int, minCap, maxCap, minRate, maxRate uint64) func(r *rand.Rand) []op {
	return func(r *rand.Rand) []op {
		n := 2 + r.Intn(maxNodes-1)
		ops := []op{{Kind: add, Node: rootID, N: check.Between(r, minCap, maxCap), Rate: check.Between(r, minRate, maxRate)}}
		for i := 1; i < n; i++ {
			parent := r.Intn(i+1) - 1
			if i < 3 {
				parent = r.Intn(i) // the first ones form a path, so parents matter
			}
			ops = append(ops, op{Kind: add, Node: parent, N: check.Between(r, minCap, maxCap), Rate: check.Between(r, minRate, maxRate)})
		}
		return ops
	}
}

// deepOrRandom draws, one time in three, a chain of MaxDepth-1 or MaxDepth
// nodes with a node beside it under the top, so that Adds reach and pass
// MaxDepth; otherwise a random tree (see randomTree).
func deepOrRandom(maxNodes int, minCap, maxCap, minRate, maxRate uint64) func(r *rand.Rand) []op {
	random := randomTree(maxNodes, minCap, maxCap, minRate, maxRate)
	return func(r *rand.Rand) []op {
		if !check.Chance(r, 1.0/3) {
			return random(r)
		}
		var ops []op
		for i := range maxDepth - r.Intn(2) {
			ops = append(ops, op{Kind: add, Node: i - 1, N: check.Between(r, minCap, maxCap), Rate: check.Between(r, minRate, maxRate)})
		}
		return append(ops, op{Kind: add, Node: 0, N: check.Between(r, minCap, maxCap), Rate: check.Between(r, minRate, maxRate)})
	}
}

// deepest returns the newest of the deepest nodes (Root if none).
func deepest(m *model) int {
	id := rootID
	for i := range m.Len() {
		if id == rootID || m.Depth(i) >= m.Depth(id) {
			id = i
		}
	}
	return id
}

// firm draws a firm with accounts and sessions, the firm's capacity the
// smallest: siblings drain it.
func firm(r *rand.Rand) []op {
	fc := check.Between(r, 2, 6)
	ops := []op{{Kind: add, Node: rootID, N: fc}}
	for range 1 + r.Intn(2) {
		a := len(ops)
		ops = append(ops, op{Kind: add, Node: 0, N: check.Between(r, fc, fc+6)})
		for range 1 + r.Intn(2) {
			ops = append(ops, op{Kind: add, Node: a, N: check.Between(r, 2, fc+4)})
		}
	}
	return ops
}

// chain draws a chain of 1 to 3 alike nodes with capacity and rate drawn
// by c.
func chain(c func(r *rand.Rand) (uint64, uint64)) func(r *rand.Rand) []op {
	return func(r *rand.Rand) []op {
		capacity, rate := c(r)
		var ops []op
		for i := range 1 + r.Intn(3) {
			ops = append(ops, op{Kind: add, Node: i - 1, N: capacity, Rate: rate})
		}
		return ops
	}
}

const second = 1_000_000_000

func seconds(k uint64) func(r *rand.Rand, m *model) uint64 {
	return func(r *rand.Rand, m *model) uint64 { return check.Between(r, 0, k) * second }
}

func noWait(*rand.Rand, *model) uint64 { return 0 }

// backSeconds steps back by 1 ns, half a second, one to three seconds, or
// 2^62 ns.
func backSeconds(r *rand.Rand, _ setup, _ uint64) uint64 {
	return check.Pick(r, 1, 500_000_000, second*check.Between(r, 1, 3), 1<<62)
}

func upTo(r *rand.Rand, _ *model, _ int, avail uint64) uint64 {
	return check.Pick(r, avail, check.Between(r, 0, avail))
}

func aroundAvail(r *rand.Rand, m *model, node int, avail uint64) uint64 {
	top := uint64(1)
	if m.Valid(node) {
		top = m.Capacity(node)
	}
	return check.Pick(r, avail, avail+1, check.Between(r, 1, top+2))
}

// interval is the time one token takes at rate, rounded up.
func interval(rate uint64) uint64 {
	if rate == 0 {
		return 1 << 40
	}
	return max(1, (second+rate-1)/rate)
}

func leaf(_ *rand.Rand, m *model) int { return m.Len() - 1 }

var allOrNothingDomain = domain{
	aim:    aim{Check: "all-or-nothing", Explain: explainAllOrNothing},
	tree:   randomTree(5, 1, 8, 0, 3),
	wait:   noWait,
	avail:  0.25,
	n:      aroundAvail,
	rules:  rules{noTime: true},
	maxOps: 25,
}

var sharedDomain = domain{
	aim:   aim{Check: "shared-parent", Explain: explainShared},
	tree:  firm,
	wait:  noWait,
	avail: 0.25,
	n: func(r *rand.Rand, m *model, node int, avail uint64) uint64 {
		return check.Pick(r, avail, avail+1, check.Between(r, 1, max(avail, 1)))
	},
	rules:  rules{noTime: true},
	maxOps: 25,
}

var lazyDomain = domain{
	aim:    aim{Check: "lazy-refill", Explain: explainLazy},
	tree:   randomTree(6, 1, 10, 1, 4),
	wait:   seconds(4),
	avail:  0.35,
	n:      upTo,
	rules:  rules{wholeRefills: true, noRefusal: true},
	maxOps: 30,
}

var backwardDomain = domain{
	aim:    aim{Check: "backward-time", Explain: explainBackward},
	start:  func(r *rand.Rand) uint64 { return check.Pick(r, 0, 5*second, check.Between(r, 0, 1e12)) },
	tree:   randomTree(4, 1, 10, 1, 4),
	wait:   seconds(3),
	back:   check.StepBack[setup]{Chance: 0.3, By: backSeconds},
	avail:  0.35,
	n:      aroundAvail,
	rules:  rules{wholeRefills: true},
	maxOps: 30,
}

var fractionalDomain = domain{
	aim:   aim{Check: "fractional-tokens", Explain: explainFractional},
	start: func(r *rand.Rand) uint64 { return check.Pick(r, 0, check.Between(r, 0, 1e12)) },
	tree: chain(func(r *rand.Rand) (uint64, uint64) {
		return check.Between(r, 8, 64), check.Pick(r, 1000, 3, 7, 999_983, 1_000_000, check.Between(r, 1, 1_000_000))
	}),
	drain: true,
	node:  leaf,
	wait: func(r *rand.Rand, m *model) uint64 {
		i := interval(m.Rate(0))
		return check.Pick(r, i/10, i/3, i/2, check.Between(r, 1, i-1))
	},
	n:      func(*rand.Rand, *model, int, uint64) uint64 { return 1 },
	rules:  rules{subToken: true, leafOnly: true, chain: true, maxCap: 64, minCap: 8},
	maxOps: 50,
}

// hugeRates are multiples of 10^9 tokens per second, so that every refill
// is a whole number of tokens: only overflow can go wrong.
var hugeRates = []uint64{1_000_000_000, 2_000_000_000, 1e12, 1e15, 1e18, 18e18, math.MaxUint64 - math.MaxUint64%1_000_000_000}

var overflowDomain = domain{
	aim: aim{Check: "overflow", Explain: func(s script, t check.Trace, why string) string { return why }},
	start: func(r *rand.Rand) uint64 {
		return check.Pick(r, 0, 1, math.MaxUint64/2, math.MaxUint64-check.Between(r, 0, 1e9), math.MaxUint64)
	},
	tree: chain(func(r *rand.Rand) (uint64, uint64) {
		return check.Pick(r, 1, 10, 1_000_000, 1<<34, 1e12, 1<<62, math.MaxUint64/1_000_000_000+1, math.MaxUint64, r.Uint64()), check.Pick(r, hugeRates...)
	}),
	drain: true,
	node:  leaf,
	wait: func(r *rand.Rand, m *model) uint64 {
		const hour, day = 3_600_000_000_000, 86_400_000_000_000
		return check.Pick(r, 0, 1, 1000, hour, day, 365*day, math.MaxUint64/3, math.MaxUint64, r.Uint64())
	},
	avail: 0.35,
	n: func(r *rand.Rand, m *model, node int, avail uint64) uint64 {
		return check.Pick(r, 0, 1, avail, avail/2, min(avail, math.MaxUint64/1_000_000_000+1), min(avail, 1<<54))
	},
	rules:  rules{wholeRefills: true, noRefusal: true, leafOnly: true, chain: true},
	maxOps: 10,
}

var addErrorsDomain = domain{
	aim:    aim{Check: "add-errors", Explain: explainAddErrors},
	tree:   deepOrRandom(4, 1, 10, 1, 4),
	wait:   seconds(3),
	back:   check.StepBack[setup]{Chance: 0.15, By: backSeconds},
	bad:    0.3,
	later:  0.15,
	avail:  0.35,
	n:      aroundAvail,
	rules:  rules{badIDs: true, wholeRefills: true},
	maxOps: 25,
}

var exactDomain = domain{
	aim:   aim{Check: "exactness"},
	start: func(r *rand.Rand) uint64 { return check.Pick(r, 0, check.Between(r, 0, 1e12)) },
	tree:  randomTree(6, 1, 20, 1, 2_000_000),
	wait: func(r *rand.Rand, m *model) uint64 {
		i := interval(m.Rate(r.Intn(m.Len())))
		return check.Pick(r, 0, 1, i/2, i, i+1, check.Between(r, 0, 4*i))
	},
	later:  0.1,
	avail:  0.3,
	n:      aroundAvail,
	maxOps: 40,
	swarm:  true,
}
