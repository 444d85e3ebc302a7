package hierarchy

import (
	"errors"
	"math/bits"
)

// Root is the parent of a top-level node.
const Root = -1

// MaxDepth is the most nodes on a path from a top-level node down.
const MaxDepth = 8

const tokenUnits = 1_000_000_000

var (
	errParent = errors.New("hierarchy: unknown parent (want Root or an id Add returned)")
	errDepth  = errors.New("hierarchy: depth: the node would be deeper than MaxDepth")
)

// Tree keeps one column per field, indexed by node id. Each node stores
// how many units it is missing to be full (128 bits), as of time stamp[i].
type Tree struct {
	clock    uint64
	up       []int32
	level    []uint8
	capacity []uint64
	rate     []uint64
	stamp    []uint64
	missHi   []uint64
	missLo   []uint64
}

// New returns an empty tree whose latest time seen is nowNs.
func New(nowNs uint64) *Tree {
	return &Tree{clock: nowNs}
}

// Add adds a full node under parent.
func (t *Tree) Add(parent int, capacity, ratePerSec uint64) (int, error) {
	var lvl uint8 = 1
	if parent != Root {
		if parent < 0 || parent >= len(t.up) {
			return -1, errParent
		}
		if t.level[parent] == MaxDepth {
			return -1, errDepth
		}
		lvl = t.level[parent] + 1
	}
	t.up = append(t.up, int32(parent))
	t.level = append(t.level, lvl)
	t.capacity = append(t.capacity, capacity)
	t.rate = append(t.rate, ratePerSec)
	t.stamp = append(t.stamp, t.clock)
	t.missHi = append(t.missHi, 0)
	t.missLo = append(t.missLo, 0)
	return len(t.up) - 1, nil
}

// catchUp repays what node i earned since its stamp.
func (t *Tree) catchUp(i int) {
	if t.stamp[i] == t.clock {
		return
	}
	eh, el := bits.Mul64(t.clock-t.stamp[i], t.rate[i])
	t.stamp[i] = t.clock
	if eh > t.missHi[i] || (eh == t.missHi[i] && el >= t.missLo[i]) {
		t.missHi[i], t.missLo[i] = 0, 0
		return
	}
	var borrow uint64
	t.missLo[i], borrow = bits.Sub64(t.missLo[i], el, 0)
	t.missHi[i] -= eh + borrow
}

// holds reports whether node i holds at least n tokens.
func (t *Tree) holds(i int, n uint64) bool {
	if n > t.capacity[i] {
		return false
	}
	nh, nl := bits.Mul64(n, tokenUnits)
	sl, c := bits.Add64(t.missLo[i], nl, 0)
	sh := t.missHi[i] + nh + c
	ch, cl := bits.Mul64(t.capacity[i], tokenUnits)
	return sh < ch || (sh == ch && sl <= cl)
}

// TryAcquire takes n tokens from node and every ancestor, or from none.
func (t *Tree) TryAcquire(node int, nowNs, n uint64) bool {
	t.clock = max(t.clock, nowNs)
	if node < 0 || node >= len(t.up) {
		return false
	}
	for i := node; i >= 0; i = int(t.up[i]) {
		t.catchUp(i)
		if !t.holds(i, n) {
			return false
		}
	}
	nh, nl := bits.Mul64(n, tokenUnits)
	for i := node; i >= 0; i = int(t.up[i]) {
		var c uint64
		t.missLo[i], c = bits.Add64(t.missLo[i], nl, 0)
		t.missHi[i] += nh + c
	}
	return true
}

// Available returns the least whole tokens over node's path.
func (t *Tree) Available(node int, nowNs uint64) uint64 {
	t.clock = max(t.clock, nowNs)
	if node < 0 || node >= len(t.up) {
		return 0
	}
	least := t.capacity[node]
	for i := node; i >= 0; i = int(t.up[i]) {
		t.catchUp(i)
		ch, cl := bits.Mul64(t.capacity[i], tokenUnits)
		hl, borrow := bits.Sub64(cl, t.missLo[i], 0)
		hh, _ := bits.Sub64(ch, t.missHi[i], borrow)
		q, _ := bits.Div64(hh, hl, tokenUnits)
		least = min(least, q)
	}
	return least
}
