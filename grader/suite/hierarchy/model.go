package hierarchy

import "math/big"

// unitsPerToken is the contract's fixed-point scale: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

// model is the contract's tree, written for clarity: every node refills
// eagerly, all of them, whenever the tree's clock moves forward.
type model struct {
	latest uint64
	nodes  []mnode
}

type mnode struct {
	parent, depth    int
	units, cap, rate *big.Int
}

func newModel(start uint64) *model { return &model{latest: start} }

// advance refills every node for the time from the latest time to now, if
// now is later; an earlier now changes nothing.
func (m *model) advance(now uint64) {
	if now <= m.latest {
		return
	}
	elapsed := new(big.Int).SetUint64(now - m.latest)
	for _, n := range m.nodes {
		n.units.Add(n.units, new(big.Int).Mul(elapsed, n.rate))
		if n.units.Cmp(n.cap) > 0 {
			n.units.Set(n.cap)
		}
	}
	m.latest = now
}

func (m *model) valid(id int) bool { return id >= 0 && id < len(m.nodes) }

// path returns id and its ancestors, id first.
func (m *model) path(id int) []int {
	var p []int
	for ; id != rootID; id = m.nodes[id].parent {
		p = append(p, id)
	}
	return p
}

// problem is what is wrong with Add(parent, ...): "" if nothing, else the
// word the error must contain.
func (m *model) problem(parent int) string {
	switch {
	case parent != rootID && !m.valid(parent):
		return "parent"
	case parent != rootID && m.nodes[parent].depth >= maxDepth:
		return "depth"
	}
	return ""
}

// add adds a full node and returns its id, or -1 and the problem.
func (m *model) add(parent int, capacity, rate uint64) (int, string) {
	if p := m.problem(parent); p != "" {
		return -1, p
	}
	depth := 1
	if parent != rootID {
		depth = m.nodes[parent].depth + 1
	}
	c := new(big.Int).Mul(new(big.Int).SetUint64(capacity), unitsPerToken)
	m.nodes = append(m.nodes, mnode{parent: parent, depth: depth, units: new(big.Int).Set(c), cap: c, rate: new(big.Int).SetUint64(rate)})
	return len(m.nodes) - 1, ""
}

func (m *model) tryAcquire(id int, now, n uint64) bool {
	m.advance(now)
	if !m.valid(id) {
		return false
	}
	need := new(big.Int).Mul(new(big.Int).SetUint64(n), unitsPerToken)
	for _, i := range m.path(id) {
		if m.nodes[i].units.Cmp(need) < 0 {
			return false
		}
	}
	for _, i := range m.path(id) {
		m.nodes[i].units.Sub(m.nodes[i].units, need)
	}
	return true
}

// whole returns node i's whole tokens.
func (m *model) whole(i int) uint64 {
	return new(big.Int).Quo(m.nodes[i].units, unitsPerToken).Uint64() // <= capacity
}

func (m *model) available(id int, now uint64) uint64 {
	m.advance(now)
	if !m.valid(id) {
		return 0
	}
	least := ^uint64(0)
	for _, i := range m.path(id) {
		least = min(least, m.whole(i))
	}
	return least
}

// lacking returns the nodes of id's path holding fewer than n tokens, as of
// the latest time.
func (m *model) lacking(id int, n uint64) []int {
	need := new(big.Int).Mul(new(big.Int).SetUint64(n), unitsPerToken)
	var out []int
	for _, i := range m.path(id) {
		if m.nodes[i].units.Cmp(need) < 0 {
			out = append(out, i)
		}
	}
	return out
}

// apply makes the call o at now.
func (m *model) apply(o op, now uint64) {
	switch o.Kind {
	case add:
		m.add(o.Node, o.N, o.Rate)
	case available:
		m.available(o.Node, now)
	default:
		m.tryAcquire(o.Node, now, o.N)
	}
}
