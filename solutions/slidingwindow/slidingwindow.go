package slidingwindow

import (
	"math"
	"math/bits"
	"strconv"
)

// SlidingWindow accepts at most limit calls per window, counted in buckets.
//
// It keeps the running total of the window and, oldest first, a queue of the
// non-empty buckets in it. When the window moves on, it drops the buckets
// that left it from the front of the queue, so every accepted call is added
// once and removed once: TryAcquire is O(1) amortised whatever the number of
// buckets. (A ring of one counter per bucket also works, but must clear every
// slot the window moved past, up to buckets of them in one call, and must
// tell a slot's old bucket from its new one.) The queue never holds more than
// min(buckets, limit) entries, allocated once in New.
//
// The zero value is not usable: use New. A SlidingWindow is not safe for
// concurrent use: callers that share one must serialise access.
type SlidingWindow struct {
	limit    uint32
	total    uint32 // calls accepted in the window
	bucketNs uint64 // windowNs / buckets
	buckets  uint64 // buckets in the window
	cur      uint64 // current bucket: the latest bucket seen, 0 at first
	endNs    uint64 // the last nanosecond of bucket cur, or MaxUint64

	// queue is a ring holding the non-empty buckets of the window, oldest
	// first, from queue[head]. Bucket ids are stored, not inferred from
	// the slot, so no marker value is needed for "no bucket".
	queue []bucket
	head  int
	n     int // entries in use
}

// bucket is one non-empty bucket in the window.
type bucket struct {
	id       uint64 // nowNs / bucketNs
	accepted uint32
}

// New returns a window that accepts at most limit calls in any bucket of
// windowNs/buckets nanoseconds and the buckets-1 before it. The current
// bucket starts at 0. It panics unless buckets >= 1 and windowNs >= buckets,
// so that a bucket lasts at least one nanosecond.
func New(limit uint32, windowNs uint64, buckets int) *SlidingWindow {
	if buckets < 1 {
		panic("slidingwindow: buckets must be >= 1, got " + strconv.Itoa(buckets))
	}
	if windowNs < uint64(buckets) {
		panic("slidingwindow: windowNs must be >= buckets (" + strconv.Itoa(buckets) + "), got " + strconv.FormatUint(windowNs, 10))
	}
	bucketNs := windowNs / uint64(buckets)
	return &SlidingWindow{
		limit:    limit,
		bucketNs: bucketNs,
		buckets:  uint64(buckets),
		endNs:    bucketNs - 1,
		// Each entry holds at least one accepted call, and the ids
		// are distinct buckets of the window: at most min(buckets,
		// limit) entries.
		queue: make([]bucket, min(uint64(buckets), uint64(limit))),
	}
}

// moveOn makes nowNs/bucketNs the current bucket, for a nowNs past the end
// of the current one, and drops the buckets that left the window. Callers
// check nowNs > endNs themselves: a time in the current bucket, or earlier
// (time never rewinds), changes nothing, and most calls need no division.
func (w *SlidingWindow) moveOn(nowNs uint64) {
	cur := nowNs / w.bucketNs // > w.cur, since nowNs is past its end
	w.cur = cur
	// The new bucket's last nanosecond, cur*bucketNs + bucketNs-1, can
	// pass MaxUint64 for the very last bucket: saturate instead.
	end, carry := bits.Add64(cur*w.bucketNs, w.bucketNs-1, 0)
	if carry != 0 {
		end = math.MaxUint64
	}
	w.endNs = end

	// The window is cur and the buckets-1 before it: bucket id has left
	// it when cur-id >= buckets. (Written as a difference, which cannot
	// wrap since id <= cur, rather than id+buckets, which can.)
	for w.n > 0 && cur-w.queue[w.head].id >= w.buckets {
		w.total -= w.queue[w.head].accepted
		w.head++
		if w.head == len(w.queue) {
			w.head = 0
		}
		w.n--
	}
}

// Count returns the number of calls accepted in the current bucket and the
// buckets-1 before it, where the current bucket is the later of
// nowNs/bucketNs and the latest bucket seen. It accepts nothing.
func (w *SlidingWindow) Count(nowNs uint64) uint32 {
	if nowNs > w.endNs {
		w.moveOn(nowNs)
	}
	return w.total
}

// TryAcquire reports whether Count(nowNs) < limit, and if so counts the call
// in the current bucket. A refused call is not counted: a client that keeps
// retrying does not lock itself out.
func (w *SlidingWindow) TryAcquire(nowNs uint64) bool {
	if nowNs > w.endNs {
		w.moveOn(nowNs)
	}
	if w.total >= w.limit {
		return false
	}
	w.total++
	// The newest entry is the tail of the queue. If it is the current
	// bucket, count the call there; otherwise open an entry for it.
	tail := w.head + w.n - 1
	if tail >= len(w.queue) {
		tail -= len(w.queue)
	}
	if w.n > 0 && w.queue[tail].id == w.cur {
		w.queue[tail].accepted++
		return true
	}
	if tail++; tail == len(w.queue) {
		tail = 0
	}
	w.queue[tail] = bucket{id: w.cur, accepted: 1}
	w.n++
	return true
}
