package hierarchy

import "fmt"

// Root is the parent of a top-level node.
const Root = -1

// MaxDepth is the most nodes on a path from a top-level node down.
const MaxDepth = 8

const perToken = 1_000_000_000

// bucket is one level: whole tokens plus the units of the next token.
type bucket struct {
	parent   *bucket
	depth    int
	capacity uint64
	rate     uint64
	whole    uint64
	part     uint64 // < perToken, 0 when full
	at       uint64 // time whole and part are as of
}

// Tree holds its buckets by id; each points to its parent.
type Tree struct {
	latest  uint64
	buckets []*bucket
}

// New returns an empty tree.
func New(nowNs uint64) *Tree {
	return &Tree{latest: nowNs}
}

// Add adds a full bucket under parent.
func (t *Tree) Add(parent int, capacity, ratePerSec uint64) (int, error) {
	b := &bucket{capacity: capacity, rate: ratePerSec, whole: capacity, at: t.latest, depth: 1}
	if parent != Root {
		if parent < 0 || parent >= len(t.buckets) {
			return -1, fmt.Errorf("hierarchy: no parent %d", parent)
		}
		b.parent = t.buckets[parent]
		b.depth = b.parent.depth + 1
		if b.depth > MaxDepth {
			return -1, fmt.Errorf("hierarchy: depth %d is more than MaxDepth", b.depth)
		}
	}
	t.buckets = append(t.buckets, b)
	return len(t.buckets) - 1, nil
}

func (b *bucket) refill(now uint64) {
	if now <= b.at {
		return
	}
	elapsed := now - b.at
	b.at = now
	if b.whole == b.capacity {
		return
	}
	earned := elapsed * b.rate
	room := b.capacity - b.whole
	q, r := earned/perToken, earned%perToken
	if q >= room {
		b.whole, b.part = b.capacity, 0
		return
	}
	r += b.part
	if r >= perToken {
		r -= perToken
		q++
	}
	if q == room {
		b.whole, b.part = b.capacity, 0
		return
	}
	b.whole += q
	b.part = r
}

func (t *Tree) find(node int, nowNs uint64) *bucket {
	if nowNs > t.latest {
		t.latest = nowNs
	}
	if node < 0 || node >= len(t.buckets) {
		return nil
	}
	return t.buckets[node]
}

// TryAcquire takes n tokens from node and every ancestor, or from none.
func (t *Tree) TryAcquire(node int, nowNs, n uint64) bool {
	leaf := t.find(node, nowNs)
	if leaf == nil {
		return false
	}
	for b := leaf; b != nil; b = b.parent {
		b.refill(t.latest)
		if b.whole < n {
			return false
		}
	}
	for b := leaf; b != nil; b = b.parent {
		b.whole -= n
	}
	return true
}

// Available returns the least whole tokens on node's path.
func (t *Tree) Available(node int, nowNs uint64) uint64 {
	leaf := t.find(node, nowNs)
	if leaf == nil {
		return 0
	}
	least := leaf.capacity
	for b := leaf; b != nil; b = b.parent {
		b.refill(t.latest)
		least = min(least, b.whole)
	}
	return least
}
