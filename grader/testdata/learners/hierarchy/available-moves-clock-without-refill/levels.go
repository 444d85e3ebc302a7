package hierarchy

import (
	"errors"
	"math/bits"
)

// Root is the parent of a top-level node.
const Root = -1

// MaxDepth is the most nodes on a path from a top-level node down.
const MaxDepth = 8

const nanoTokens = 1_000_000_000

type level struct {
	parent       int
	depth        int
	rate         uint64
	capHi, capLo uint64
	hi, lo       uint64 // units held
}

// grow adds d ns of refill to l, capped at its capacity.
func (l *level) grow(d uint64) (hi, lo uint64) {
	ph, pl := bits.Mul64(d, l.rate)
	lo, c := bits.Add64(l.lo, pl, 0)
	hi, over := bits.Add64(l.hi, ph, c)
	if over != 0 || hi > l.capHi || (hi == l.capHi && lo > l.capLo) {
		return l.capHi, l.capLo
	}
	return hi, lo
}

// Tree refills every level whenever its clock moves, so every level is
// always up to date.
type Tree struct {
	latest uint64
	levels []level
}

// New returns an empty tree.
func New(nowNs uint64) *Tree {
	return &Tree{latest: nowNs}
}

// Add adds a full level under parent.
func (t *Tree) Add(parent int, capacity, ratePerSec uint64) (int, error) {
	depth := 1
	if parent != Root {
		if parent < 0 || parent >= len(t.levels) {
			return -1, errors.New("hierarchy: parent must be Root or an existing id")
		}
		depth = t.levels[parent].depth + 1
	}
	if depth > MaxDepth {
		return -1, errors.New("hierarchy: depth limit MaxDepth reached")
	}
	hi, lo := bits.Mul64(capacity, nanoTokens)
	t.levels = append(t.levels, level{parent: parent, depth: depth, rate: ratePerSec, capHi: hi, capLo: lo, hi: hi, lo: lo})
	return len(t.levels) - 1, nil
}

// advance refills every level for the time since the latest call.
func (t *Tree) advance(nowNs uint64) {
	if nowNs <= t.latest {
		return
	}
	d := nowNs - t.latest
	t.latest = nowNs
	for i := range t.levels {
		t.levels[i].hi, t.levels[i].lo = t.levels[i].grow(d)
	}
}

// TryAcquire takes n tokens from node and every ancestor, or from none.
func (t *Tree) TryAcquire(node int, nowNs, n uint64) bool {
	t.advance(nowNs)
	if node < 0 || node >= len(t.levels) {
		return false
	}
	nh, nl := bits.Mul64(n, nanoTokens)
	for i := node; i != Root; i = t.levels[i].parent {
		l := &t.levels[i]
		if l.hi < nh || (l.hi == nh && l.lo < nl) {
			return false
		}
	}
	for i := node; i != Root; i = t.levels[i].parent {
		l := &t.levels[i]
		var b uint64
		l.lo, b = bits.Sub64(l.lo, nl, 0)
		l.hi -= nh + b
	}
	return true
}

// Available returns the least whole tokens on node's path. It changes no
// level: it works out what each would hold at nowNs.
func (t *Tree) Available(node int, nowNs uint64) uint64 {
	var d uint64
	if nowNs > t.latest {
		d = nowNs - t.latest
		t.latest = nowNs
	}
	if node < 0 || node >= len(t.levels) {
		return 0
	}
	least := ^uint64(0)
	for i := node; i != Root; i = t.levels[i].parent {
		hi, lo := t.levels[i].grow(d)
		q, _ := bits.Div64(hi, lo, nanoTokens)
		least = min(least, q)
	}
	return least
}
