package slidingwindow

import "fmt"

// busy is a bucket that accepted at least one call.
type busy struct {
	id    uint64
	calls uint32
}

// SlidingWindow keeps only the buckets that accepted calls, oldest first, in
// a ring of at most buckets entries, and the sum of their calls.
type SlidingWindow struct {
	limit    uint32
	bucketNs uint64
	span     uint64 // buckets
	cur      uint64 // latest bucket seen
	ring     []busy
	head     int
	size     int
	total    uint32
}

// New returns an empty window.
func New(limit uint32, windowNs uint64, buckets int) *SlidingWindow {
	if buckets < 1 {
		panic(fmt.Sprintf("slidingwindow: buckets must be at least 1, got %d", buckets))
	}
	if windowNs <= uint64(buckets) {
		panic(fmt.Sprintf("slidingwindow: windowNs must be more than buckets (%d), got %d", buckets, windowNs))
	}
	return &SlidingWindow{
		limit:    limit,
		bucketNs: windowNs / uint64(buckets),
		span:     uint64(buckets),
		ring:     make([]busy, buckets),
	}
}

// advance moves the current bucket to nowNs's, if later, and drops the busy
// buckets that left the window.
func (w *SlidingWindow) advance(nowNs uint64) {
	if id := nowNs / w.bucketNs; id > w.cur {
		w.cur = id
	}
	for w.size > 0 {
		oldest := w.ring[w.head]
		if w.cur-oldest.id < w.span {
			return
		}
		w.total -= oldest.calls
		w.head++
		if w.head == len(w.ring) {
			w.head = 0
		}
		w.size--
	}
}

// Count returns the calls accepted in the window ending at the current bucket.
func (w *SlidingWindow) Count(nowNs uint64) uint32 {
	w.advance(nowNs)
	return w.total
}

// TryAcquire accepts and counts a call while the window holds fewer than limit.
func (w *SlidingWindow) TryAcquire(nowNs uint64) bool {
	w.advance(nowNs)
	if w.total >= w.limit {
		return false
	}
	w.total++
	if w.size > 0 {
		last := (w.head + w.size - 1) % len(w.ring)
		if w.ring[last].id == w.cur {
			w.ring[last].calls++
			return true
		}
	}
	w.ring[(w.head+w.size)%len(w.ring)] = busy{id: w.cur, calls: 1}
	w.size++
	return true
}
