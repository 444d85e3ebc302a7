package hierarchy

import (
	"fmt"
	"math/bits"
)

// Root is the parent of a top-level node.
const Root = -1

// MaxDepth is the most nodes on a path from a top-level node down.
const MaxDepth = 8

const scale = 1_000_000_000

type limiter struct {
	parent       int
	depth        int
	rate         uint64
	capHi, capLo uint64
	hi, lo       uint64
	last         uint64
}

// Tree finds its nodes in a map by id.
type Tree struct {
	now   uint64
	next  int
	nodes map[int]*limiter
}

// New returns an empty tree.
func New(nowNs uint64) *Tree {
	return &Tree{now: nowNs, nodes: map[int]*limiter{}}
}

// Add adds a full node under parent.
func (t *Tree) Add(parent int, capacity, ratePerSec uint64) (int, error) {
	depth := 1
	if parent != Root {
		p, ok := t.nodes[parent]
		if !ok {
			return -1, fmt.Errorf("hierarchy: parent %d does not exist", parent)
		}
		if p.depth >= MaxDepth {
			return -1, fmt.Errorf("hierarchy: depth would be %d, MaxDepth is %d", p.depth+1, MaxDepth)
		}
		depth = p.depth + 1
	}
	hi, lo := bits.Mul64(capacity, scale)
	id := t.next
	t.next++
	t.nodes[id] = &limiter{parent: parent, depth: depth, rate: ratePerSec, capHi: hi, capLo: lo, hi: hi, lo: lo, last: t.now}
	return id, nil
}

// path returns the node and its ancestors, each refilled to the tree's time.
func (t *Tree) path(node int, nowNs uint64) []*limiter {
	if nowNs > t.now {
		t.now = nowNs
	}
	var out []*limiter
	for id := node; id != Root; {
		l, ok := t.nodes[id]
		if !ok {
			return nil
		}
		if l.last < t.now {
			ph, pl := bits.Mul64(t.now-l.last, l.rate)
			l.last = t.now
			lo, c := bits.Add64(l.lo, pl, 0)
			hi, over := bits.Add64(l.hi, ph, c)
			if over != 0 || hi > l.capHi || (hi == l.capHi && lo > l.capLo) {
				hi, lo = l.capHi, l.capLo
			}
			l.hi, l.lo = hi, lo
		}
		out = append(out, l)
		id = l.parent
	}
	return out
}

// TryAcquire takes n tokens from node and every ancestor, or from none.
func (t *Tree) TryAcquire(node int, nowNs, n uint64) bool {
	p := t.path(node, nowNs)
	if len(p) == 0 {
		return false
	}
	nh, nl := bits.Mul64(n, scale)
	for _, l := range p {
		if l.hi < nh || (l.hi == nh && l.lo < nl) {
			return false
		}
	}
	for _, l := range p {
		var b uint64
		l.lo, b = bits.Sub64(l.lo, nl, 0)
		l.hi -= nh + b
	}
	return true
}

// Available returns the least whole tokens on node's path.
func (t *Tree) Available(node int, nowNs uint64) uint64 {
	p := t.path(node, nowNs)
	if len(p) == 0 {
		return 0
	}
	least := ^uint64(0)
	for _, l := range p {
		q, _ := bits.Div64(l.hi, l.lo, scale)
		least = min(least, q)
	}
	return least
}
