package slidingwindow

// model is the contract's sliding window, written for clarity, not speed.
type model struct {
	limit    uint32
	bucketNs uint64
	k        uint64 // buckets in the window
	windowNs uint64
	cur      uint64            // the current bucket: the latest seen, 0 at first
	accepted map[uint64]uint32 // bucket id -> calls accepted in it
}

func newModel(s setup) *model {
	return &model{limit: s.Limit, bucketNs: s.WindowNs / uint64(s.Buckets), k: uint64(s.Buckets), windowNs: s.WindowNs, accepted: map[uint64]uint32{}}
}

// bucketAt returns the current bucket for a call at now: the latest bucket
// seen if now's bucket is earlier.
func (m *model) bucketAt(now uint64) uint64 { return max(m.cur, now/m.bucketNs) }

// inWindow reports whether bucket id is counted when cur is the current
// bucket: cur and the k-1 buckets before it.
func (m *model) inWindow(id, cur uint64) bool { return id <= cur && cur-id < m.k }

// edge reports whether a bucket dist buckets behind the current one is on
// the window's edge: buckets-1 or buckets behind, or beyond that but still
// overlapping windowNs when buckets does not divide it. These are the
// buckets that a window one bucket too narrow or too wide, or measured in
// nanoseconds instead of buckets, gets wrong.
func (m *model) edge(dist uint64) bool {
	return dist != 0 && dist >= m.k-1 && dist <= max(m.k, (m.windowNs-1)/m.bucketNs)
}

// countAt sums the calls accepted in the window ending at bucket cur.
func (m *model) countAt(cur uint64) uint32 {
	var n uint64
	for id, c := range m.accepted {
		if m.inWindow(id, cur) {
			n += uint64(c)
		}
	}
	return uint32(n) // never more than limit
}

func (m *model) count(now uint64) uint32 {
	m.cur = m.bucketAt(now)
	return m.countAt(m.cur)
}

func (m *model) tryAcquire(now uint64) bool {
	if m.count(now) >= m.limit {
		return false
	}
	m.accepted[m.cur]++
	return true
}

// apply makes the call o on the model and returns the new latest time.
func (m *model) apply(o op, latest uint64) uint64 {
	now := o.at(latest, m.bucketNs)
	if o.Count {
		m.count(now)
	} else {
		m.tryAcquire(now)
	}
	return max(latest, now)
}
