package model

import "math/big"

// The hierarchy contract's Root (the parent of a top-level node) and
// MaxDepth (nodes on a path, the node itself included).
const (
	TreeRoot     = -1
	TreeMaxDepth = 8
)

// Tree is the contract's tree of token buckets (the doc of
// exercises/hierarchy), written for clarity: every node refills eagerly,
// all of them, whenever the tree's one clock moves forward. The hierarchy
// suite grades with it; the browser's replay shows it.
type Tree struct {
	latest uint64
	nodes  []treeNode
}

type treeNode struct {
	parent, depth    int
	units, cap, rate *big.Int
}

// NewTree returns a tree with no nodes and start as the latest time seen.
func NewTree(start uint64) *Tree { return &Tree{latest: start} }

// Advance refills every node for the time from the latest time to now, if
// now is later; an earlier now changes nothing.
func (m *Tree) Advance(now uint64) {
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

// Len returns the number of nodes Add made.
func (m *Tree) Len() int { return len(m.nodes) }

// Valid reports whether id is a node's.
func (m *Tree) Valid(id int) bool { return id >= 0 && id < len(m.nodes) }

// Latest returns the latest time seen.
func (m *Tree) Latest() uint64 { return m.latest }

// Parent, Depth, Units, Cap and Rate describe node i: its parent
// (TreeRoot at the top), its depth (1 at the top), the units it holds
// (1 token = 10^9 units) out of Cap as of the latest time, and the units
// it earns a nanosecond. Units and Cap are copies.
func (m *Tree) Parent(i int) int     { return m.nodes[i].parent }
func (m *Tree) Depth(i int) int      { return m.nodes[i].depth }
func (m *Tree) Units(i int) *big.Int { return new(big.Int).Set(m.nodes[i].units) }
func (m *Tree) Cap(i int) *big.Int   { return new(big.Int).Set(m.nodes[i].cap) }
func (m *Tree) Rate(i int) uint64    { return m.nodes[i].rate.Uint64() }
func (m *Tree) Whole(i int) uint64   { return new(big.Int).Quo(m.nodes[i].units, unitsPerToken).Uint64() } // <= capacity
func (m *Tree) Capacity(i int) uint64 {
	return new(big.Int).Quo(m.nodes[i].cap, unitsPerToken).Uint64()
}

// Room returns the units node i misses to be full, as of the latest time.
func (m *Tree) Room(i int) *big.Int { return new(big.Int).Sub(m.nodes[i].cap, m.nodes[i].units) }

// Path returns id and its ancestors, id first.
func (m *Tree) Path(id int) []int {
	var p []int
	for ; id != TreeRoot; id = m.nodes[id].parent {
		p = append(p, id)
	}
	return p
}

// Problem is what is wrong with Add(parent, ...): "" if nothing, else the
// word the error must contain ("parent", "depth").
func (m *Tree) Problem(parent int) string {
	switch {
	case parent != TreeRoot && !m.Valid(parent):
		return "parent"
	case parent != TreeRoot && m.nodes[parent].depth >= TreeMaxDepth:
		return "depth"
	}
	return ""
}

// Add adds a full node and returns its id, or -1 and the problem.
func (m *Tree) Add(parent int, capacity, rate uint64) (int, string) {
	if p := m.Problem(parent); p != "" {
		return -1, p
	}
	depth := 1
	if parent != TreeRoot {
		depth = m.nodes[parent].depth + 1
	}
	c := new(big.Int).Mul(new(big.Int).SetUint64(capacity), unitsPerToken)
	m.nodes = append(m.nodes, treeNode{parent: parent, depth: depth, units: new(big.Int).Set(c), cap: c, rate: new(big.Int).SetUint64(rate)})
	return len(m.nodes) - 1, ""
}

// TryAcquire takes n tokens from every node on id's path if all hold them,
// else nothing anywhere.
func (m *Tree) TryAcquire(id int, now, n uint64) bool {
	m.Advance(now)
	if !m.Valid(id) {
		return false
	}
	need := new(big.Int).Mul(new(big.Int).SetUint64(n), unitsPerToken)
	for _, i := range m.Path(id) {
		if m.nodes[i].units.Cmp(need) < 0 {
			return false
		}
	}
	for _, i := range m.Path(id) {
		m.nodes[i].units.Sub(m.nodes[i].units, need)
	}
	return true
}

// Available returns the least whole tokens held on id's path.
func (m *Tree) Available(id int, now uint64) uint64 {
	m.Advance(now)
	if !m.Valid(id) {
		return 0
	}
	least := ^uint64(0)
	for _, i := range m.Path(id) {
		least = min(least, m.Whole(i))
	}
	return least
}

// Lacking returns the nodes of id's path holding fewer than n tokens, as of
// the latest time.
func (m *Tree) Lacking(id int, n uint64) []int {
	need := new(big.Int).Mul(new(big.Int).SetUint64(n), unitsPerToken)
	var out []int
	for _, i := range m.Path(id) {
		if m.nodes[i].units.Cmp(need) < 0 {
			out = append(out, i)
		}
	}
	return out
}
