package limiters

import "sort"

// SlidingLog admits a message at time t when fewer than limit accepted
// messages lie in the window (t-W, t], that is, when the oldest of the last
// limit accepted times is at least W old. It keeps those times in a ring, so
// it is exact for every window and O(1) per call, at the price of limit
// timestamps of memory.
//
// A time earlier than one already seen counts as the latest time seen. The
// zero value is not usable; call NewSlidingLog.
type SlidingLog struct {
	windowNs uint64
	ring     []uint64 // accepted times, oldest at head once the ring is full
	head     int      // index of the oldest time when len(ring) == cap(ring)
	latest   uint64   // latest time seen
}

// NewSlidingLog returns a sliding log admitting limit messages in any window
// of windowNs nanoseconds. It allocates limit timestamps up front.
func NewSlidingLog(limit uint32, windowNs uint64) *SlidingLog {
	return &SlidingLog{windowNs: windowNs, ring: make([]uint64, 0, limit)}
}

// TryAcquire records one message at nowNs if the window ending at nowNs
// holds fewer than limit accepted messages, and reports whether it did.
func (l *SlidingLog) TryAcquire(nowNs uint64) bool {
	if nowNs < l.latest {
		nowNs = l.latest
	}
	l.latest = nowNs
	if len(l.ring) < cap(l.ring) {
		l.ring = append(l.ring, nowNs)
		return true
	}
	if len(l.ring) == 0 || nowNs-l.ring[l.head] < l.windowNs {
		return false
	}
	l.ring[l.head] = nowNs
	l.head++
	if l.head == len(l.ring) {
		l.head = 0
	}
	return true
}

// Count returns the number of accepted messages in the window (t-W, t],
// where t is nowNs or the latest time seen if that is later. It changes
// nothing and costs O(log limit).
func (l *SlidingLog) Count(nowNs uint64) uint32 {
	if nowNs < l.latest {
		nowNs = l.latest
	}
	n := len(l.ring)
	// The ring read from head is sorted; find the first time still inside.
	first := sort.Search(n, func(i int) bool {
		return nowNs-l.ring[(l.head+i)%n] < l.windowNs
	})
	return uint32(n - first)
}
