package class

import (
	"math"
	"math/bits"
	"sync"
	"time"

	"ratelab/solutions/tokenbucket"
)

// Throttle limits each learner's submissions with the course's own token
// bucket (solutions/tokenbucket): Burst submissions at once, then one more
// every Every. It is safe for concurrent use.
//
// The bucket counts whole tokens per second; a budget of one token every
// Every (say 30s) is a rate below one per second, so the bucket runs on a
// scaled clock where one "second" lasts Every: its nowNs is the real time
// since the throttle started times 10^9/Every.
type Throttle struct {
	Burst uint64
	Every time.Duration

	mu      sync.Mutex
	start   time.Time
	buckets map[int64]*tokenbucket.TokenBucket
}

// NewThrottle returns a throttle allowing burst submissions at once and one
// more every every, started at now.
func NewThrottle(burst uint64, every time.Duration, now time.Time) *Throttle {
	return &Throttle{Burst: max(burst, 1), Every: max(every, time.Millisecond), start: now, buckets: map[int64]*tokenbucket.TokenBucket{}}
}

// scaled is the bucket's clock at now: nanoseconds of "seconds" that last
// Every each.
func (t *Throttle) scaled(now time.Time) uint64 {
	d := now.Sub(t.start)
	if d <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(d), 1e9)
	if hi >= uint64(t.Every) {
		return math.MaxUint64
	}
	q, _ := bits.Div64(hi, lo, uint64(t.Every))
	return q
}

// Allow takes a token for user at now. When it refuses, retry is how long
// until the next token (at least 1ms).
func (t *Throttle) Allow(user int64, now time.Time) (ok bool, retry time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v := t.scaled(now)
	b, found := t.buckets[user]
	if !found {
		b = tokenbucket.New(t.Burst, 1, v)
		t.buckets[user] = b
	}
	if b.TryAcquire(v, 1) {
		return true, 0
	}
	// The earliest scaled time with a whole token, found on copies of the
	// bucket (a probe at a later time would move the real one's clock on).
	lo, hi := v, v+1e9 // at one token per scaled second, one is at most 1e9 away
	for lo < hi {
		mid := lo + (hi-lo)/2
		probe := *b
		if probe.Available(mid) >= 1 {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	wait := time.Duration(float64(lo-v) / 1e9 * float64(t.Every))
	return false, max(wait, time.Millisecond)
}
