package slidingwindow

import "fmt"

// SlidingWindow is a ring of per-bucket counters, slot id%buckets holding
// bucket id, with a running total of the window.
type SlidingWindow struct {
	limit    uint32
	bucketNs uint64
	slots    []uint32
	cur      uint64
	total    uint32
}

// New returns an empty window.
func New(limit uint32, windowNs uint64, buckets int) *SlidingWindow {
	if buckets < 1 {
		panic(fmt.Sprintf("slidingwindow: buckets must be >= 1, got %d", buckets))
	}
	if windowNs < uint64(buckets) {
		panic(fmt.Sprintf("slidingwindow: windowNs must be >= buckets, got windowNs=%d buckets=%d", windowNs, buckets))
	}
	return &SlidingWindow{
		limit:    limit,
		bucketNs: windowNs / uint64(buckets),
		slots:    make([]uint32, buckets),
	}
}

func (w *SlidingWindow) slot(id uint64) int {
	return int(id % uint64(len(w.slots)))
}

// moveTo makes the bucket of nowNs current, if it is later, emptying the
// slots of the buckets it moves past.
func (w *SlidingWindow) moveTo(nowNs uint64) {
	next := nowNs / w.bucketNs
	if next <= w.cur {
		return
	}
	if next-w.cur >= uint64(len(w.slots)) {
		clear(w.slots)
		w.total = 0
	} else {
		// the new bucket reuses the slot of the one that just left
		s := w.slot(next)
		w.total -= w.slots[s]
		w.slots[s] = 0
	}
	w.cur = next
}

// Count returns the calls accepted in the window ending at the current bucket.
func (w *SlidingWindow) Count(nowNs uint64) uint32 {
	w.moveTo(nowNs)
	return w.total
}

// TryAcquire accepts and counts a call while Count is below the limit.
func (w *SlidingWindow) TryAcquire(nowNs uint64) bool {
	w.moveTo(nowNs)
	if w.total >= w.limit {
		return false
	}
	w.total++
	w.slots[w.slot(w.cur)]++
	return true
}
