package slidingwindow

// SlidingWindow is your limiter. Its fields are yours to choose: what must it
// remember between two calls, and how will you drop the buckets that leave
// the window without visiting every bucket on every call?
type SlidingWindow struct {
	// Your fields here.
}

// New returns a window that accepts at most limit calls in any bucket of
// windowNs/buckets nanoseconds and the buckets-1 buckets before it. It
// panics, naming the argument, unless buckets >= 1 and windowNs >= buckets.
func New(limit uint32, windowNs uint64, buckets int) *SlidingWindow {
	panic("slidingwindow: New is not implemented yet")
}

// Count returns the number of calls accepted in the current bucket and the
// buckets-1 before it. The current bucket is the larger of nowNs/bucketNs and
// the latest bucket seen.
func (w *SlidingWindow) Count(nowNs uint64) uint32 {
	panic("slidingwindow: Count is not implemented yet")
}

// TryAcquire reports whether Count(nowNs) < limit, and if so counts the call
// in the current bucket. A refused call is not counted.
func (w *SlidingWindow) TryAcquire(nowNs uint64) bool {
	panic("slidingwindow: TryAcquire is not implemented yet")
}
