package model

// Window is the contract's sliding window (the doc of
// exercises/slidingwindow): calls accepted by bucket of BucketNs
// (WindowNs/buckets) nanoseconds; the count is that of the current bucket
// and the K-1 before it. The current bucket is that of the latest time
// seen: a call earlier than that counts as made in it.
type Window struct {
	Limit    uint32
	BucketNs uint64
	K        uint64 // buckets in the window
	WindowNs uint64
	Cur      uint64            // the current bucket: the latest seen, 0 at first
	Accepted map[uint64]uint32 // bucket id -> calls accepted in it
}

// NewWindow is New(limit, windowNs, buckets).
func NewWindow(limit uint32, windowNs uint64, buckets int) *Window {
	return &Window{Limit: limit, BucketNs: windowNs / uint64(buckets), K: uint64(buckets), WindowNs: windowNs, Accepted: map[uint64]uint32{}}
}

// BucketAt returns the current bucket for a call at now: the latest
// bucket seen if now's is earlier.
func (m *Window) BucketAt(now uint64) uint64 { return max(m.Cur, now/m.BucketNs) }

// InWindow reports whether bucket id is counted when cur is the current
// bucket: cur and the K-1 buckets before it.
func (m *Window) InWindow(id, cur uint64) bool { return id <= cur && cur-id < m.K }

// CountAt sums the calls accepted in the window ending at bucket cur.
func (m *Window) CountAt(cur uint64) uint32 {
	var n uint64
	for id, c := range m.Accepted {
		if m.InWindow(id, cur) {
			n += uint64(c)
		}
	}
	return uint32(n) // never more than Limit
}

// Count moves the current bucket to now's and returns the count.
func (m *Window) Count(now uint64) uint32 {
	m.Cur = m.BucketAt(now)
	return m.CountAt(m.Cur)
}

// TryAcquire counts one call if the count is below Limit.
func (m *Window) TryAcquire(now uint64) bool {
	if m.Count(now) >= m.Limit {
		return false
	}
	m.Accepted[m.Cur]++
	return true
}
