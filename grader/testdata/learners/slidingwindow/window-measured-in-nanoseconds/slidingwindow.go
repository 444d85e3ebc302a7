package slidingwindow

import "fmt"

// SlidingWindow keeps a queue of the buckets that accepted calls (their ids
// and counts in two slices, oldest at first), and two lifetime counters: calls
// accepted, and calls that have left the window. Their difference is the count.
type SlidingWindow struct {
	limit    uint32
	bucketNs uint64
	windowNs uint64
	n        uint64
	latest   uint64
	ids      []uint64
	counts   []uint32
	first    int // index of the oldest live entry
	accepted uint64
	left     uint64
}

// New returns an empty window.
func New(limit uint32, windowNs uint64, buckets int) *SlidingWindow {
	switch {
	case buckets < 1:
		panic(fmt.Sprintf("slidingwindow: buckets = %d, want >= 1", buckets))
	case windowNs < uint64(buckets):
		panic(fmt.Sprintf("slidingwindow: windowNs = %d, want >= buckets = %d", windowNs, buckets))
	}
	return &SlidingWindow{
		limit:    limit,
		bucketNs: windowNs / uint64(buckets),
		windowNs: windowNs,
		n:        uint64(buckets),
		ids:      make([]uint64, 0, buckets+1),
		counts:   make([]uint32, 0, buckets+1),
	}
}

func (w *SlidingWindow) current(nowNs uint64) uint64 {
	w.latest = max(w.latest, nowNs/w.bucketNs)
	for w.first < len(w.ids) && (w.latest-w.ids[w.first])*w.bucketNs >= w.windowNs {
		w.left += uint64(w.counts[w.first])
		w.first++
	}
	if w.first == len(w.ids) {
		w.ids, w.counts, w.first = w.ids[:0], w.counts[:0], 0
	} else if w.first > len(w.ids)/2 && len(w.ids) == cap(w.ids) {
		live := copy(w.ids, w.ids[w.first:])
		copy(w.counts, w.counts[w.first:])
		w.ids, w.counts, w.first = w.ids[:live], w.counts[:live], 0
	}
	return w.latest
}

// Count returns the calls accepted in the current bucket and the buckets-1
// before it.
func (w *SlidingWindow) Count(nowNs uint64) uint32 {
	w.current(nowNs)
	return uint32(w.accepted - w.left)
}

// TryAcquire accepts and counts a call while Count is below the limit.
func (w *SlidingWindow) TryAcquire(nowNs uint64) bool {
	cur := w.current(nowNs)
	if w.accepted-w.left >= uint64(w.limit) {
		return false
	}
	w.accepted++
	if k := len(w.ids) - 1; k >= w.first && w.ids[k] == cur {
		w.counts[k]++
	} else {
		w.ids = append(w.ids, cur)
		w.counts = append(w.counts, 1)
	}
	return true
}
