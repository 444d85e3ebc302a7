package hierarchy

import (
	"fmt"
	"math/bits"
)

// Root is the parent of a top-level node.
const Root = -1

// MaxDepth is the most nodes on a path from a top-level node down.
const MaxDepth = 8

const unit = 1_000_000_000 // units per token

// node is a token bucket holding hi:lo units (128 bits) as of the tree time
// synced; it is refilled lazily, when a call walks through it.
type node struct {
	parent       int
	depth        int
	rate         uint64
	capHi, capLo uint64
	hi, lo       uint64
	synced       uint64
}

// Tree is a tree of token buckets stored in a slice indexed by id.
type Tree struct {
	now   uint64
	nodes []node
}

// New returns an empty tree whose latest time seen is nowNs.
func New(nowNs uint64) *Tree {
	return &Tree{now: nowNs}
}

// Add adds a full node under parent and returns its id.
func (t *Tree) Add(parent int, capacity, ratePerSec uint64) (int, error) {
	depth := 1
	if parent != Root {
		if parent < 0 || parent >= len(t.nodes) {
			return -1, fmt.Errorf("hierarchy: parent %d is neither Root nor a node id", parent)
		}
		depth = t.nodes[parent].depth + 1
		if depth > MaxDepth {
			return -1, fmt.Errorf("hierarchy: a node under %d would be at depth %d, deeper than MaxDepth %d", parent, depth, MaxDepth)
		}
	}
	hi, lo := bits.Mul64(capacity, unit)
	t.nodes = append(t.nodes, node{
		parent: parent, depth: depth, rate: ratePerSec,
		capHi: hi, capLo: lo, hi: hi, lo: lo, synced: t.now,
	})
	return len(t.nodes) - 1, nil
}

func (t *Tree) tick(nowNs uint64) {
	if nowNs > t.now {
		t.now = nowNs
	}
}

func (t *Tree) known(id int) bool {
	return id >= 0 && id < len(t.nodes)
}

// refill brings node i up to the tree's time and returns it.
func (t *Tree) refill(i int, nowNs uint64) *node {
	b := &t.nodes[i]
	if b.synced < nowNs {
		ph, pl := bits.Mul64(nowNs-b.synced, b.rate)
		b.synced = nowNs
		lo, c := bits.Add64(b.lo, pl, 0)
		hi, over := bits.Add64(b.hi, ph, c)
		if over != 0 || hi > b.capHi || (hi == b.capHi && lo > b.capLo) {
			hi, lo = b.capHi, b.capLo
		}
		b.hi, b.lo = hi, lo
	}
	return b
}

// TryAcquire takes n tokens from id and every ancestor, or from none.
func (t *Tree) TryAcquire(id int, nowNs, n uint64) bool {
	t.tick(nowNs)
	if !t.known(id) {
		return false
	}
	nh, nl := bits.Mul64(n, unit)
	for i := id; i != Root; i = t.nodes[i].parent {
		b := t.refill(i, nowNs)
		if b.hi < nh || (b.hi == nh && b.lo < nl) {
			return false
		}
	}
	for i := id; i != Root; i = t.nodes[i].parent {
		b := &t.nodes[i]
		var borrow uint64
		b.lo, borrow = bits.Sub64(b.lo, nl, 0)
		b.hi -= nh + borrow
	}
	return true
}

// Available returns the least whole tokens over id's path.
func (t *Tree) Available(id int, nowNs uint64) uint64 {
	t.tick(nowNs)
	if !t.known(id) {
		return 0
	}
	least := ^uint64(0)
	for i := id; i != Root; i = t.nodes[i].parent {
		b := t.refill(i, nowNs)
		q, _ := bits.Div64(b.hi, b.lo, unit)
		least = min(least, q)
	}
	return least
}
