package limiters

// TokenBucket runs a Bucket as a one-message limiter: each call asks for one
// token. It remembers the time of its latest call so that the bucket's
// content can be shown without disturbing an inexact bucket.
type TokenBucket struct {
	b      Bucket
	exact  bool
	latest uint64
}

// NewTokenBucket returns b run one message at a time. Pass exact true only
// when asking b for Available at any time changes no later decision (see
// Impl.Exact); nowNs is the time b was made at.
func NewTokenBucket(b Bucket, exact bool, nowNs uint64) *TokenBucket {
	return &TokenBucket{b: b, exact: exact, latest: nowNs}
}

// TryAcquire asks the bucket for one token at nowNs and reports whether it
// was granted.
func (t *TokenBucket) TryAcquire(nowNs uint64) bool {
	if nowNs > t.latest {
		t.latest = nowNs
	}
	return t.b.TryAcquire(nowNs, 1)
}

// Tokens returns the whole tokens in the bucket at nowNs for an exact
// bucket, and at the time of the latest call otherwise (asking an inexact
// bucket at any other time could change what it decides next).
func (t *TokenBucket) Tokens(nowNs uint64) uint64 {
	if !t.exact || nowNs < t.latest {
		nowNs = t.latest
	}
	return t.b.Available(nowNs)
}

// SlidingWindow runs a Window and keeps, beside it, its own count of the
// messages the window accepted in each of the last K buckets, so that the
// counts per bucket can be shown: the exercise API only gives their sum. For
// a correct window the two agree; for a learner's window the counts shown
// are what its decisions imply.
type SlidingWindow struct {
	w        Window
	bucketNs uint64
	counts   []uint32 // ring of K counters, slot = bucket id % K
	ids      []uint64 // bucket id counted by each slot
	used     []bool   // whether the slot has counted any bucket yet
	latest   uint64   // latest bucket id seen
}

// NewSlidingWindow returns w, a window of windowNs split into buckets
// buckets, with the shadow counts that Buckets shows. It panics if buckets is
// below 1 or windowNs below buckets, like the exercise's New.
func NewSlidingWindow(w Window, windowNs uint64, buckets int) *SlidingWindow {
	if buckets < 1 || windowNs < uint64(buckets) {
		panic("limiters: NewSlidingWindow: need buckets >= 1 and windowNs >= buckets")
	}
	return &SlidingWindow{
		w:        w,
		bucketNs: windowNs / uint64(buckets),
		counts:   make([]uint32, buckets),
		ids:      make([]uint64, buckets),
		used:     make([]bool, buckets),
	}
}

// bucket returns the current bucket id at nowNs: time never rewinds.
func (s *SlidingWindow) bucket(nowNs uint64) uint64 {
	return max(nowNs/s.bucketNs, s.latest)
}

// TryAcquire asks the window to admit one message at nowNs, counts it in the
// shadow if it was admitted, and reports whether it was.
func (s *SlidingWindow) TryAcquire(nowNs uint64) bool {
	id := s.bucket(nowNs)
	s.latest = id
	if !s.w.TryAcquire(nowNs) {
		return false
	}
	slot := id % uint64(len(s.counts))
	if !s.used[slot] || s.ids[slot] != id {
		s.counts[slot], s.ids[slot], s.used[slot] = 0, id, true
	}
	s.counts[slot]++
	return true
}

// Buckets appends to dst the accepted count of each of the K buckets of the
// window at nowNs, oldest first and the current bucket last, and returns the
// extended slice. It changes nothing.
func (s *SlidingWindow) Buckets(dst []uint32, nowNs uint64) []uint32 {
	cur := s.bucket(nowNs)
	k := uint64(len(s.counts))
	for i := k; i > 0; i-- {
		back := i - 1 // buckets before the current one
		if back > cur {
			dst = append(dst, 0) // before bucket 0
			continue
		}
		id := cur - back
		slot := id % k
		if s.used[slot] && s.ids[slot] == id {
			dst = append(dst, s.counts[slot])
		} else {
			dst = append(dst, 0)
		}
	}
	return dst
}

// Count returns the sum the shadow counts give at nowNs: the messages
// accepted in the current bucket and the K-1 before it.
func (s *SlidingWindow) Count(nowNs uint64) uint32 {
	cur := s.bucket(nowNs)
	k := uint64(len(s.counts))
	var sum uint32
	for slot := range s.counts {
		if id := s.ids[slot]; s.used[slot] && id <= cur && cur-id < k {
			sum += s.counts[slot]
		}
	}
	return sum
}
