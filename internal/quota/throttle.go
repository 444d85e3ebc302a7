// Package quota limits what each learner, name or address may do, with
// the course's own token bucket (solutions/tokenbucket): a learner's
// submissions, checks and saves (PerUser), and the class's sign-in form
// (SignIn).
package quota

import (
	"math"
	"math/bits"
	"sync"
	"time"

	"ratelab/solutions/tokenbucket"
)

// PerUser limits each learner's submissions, checks or saves (keyed by
// user id): see Keyed.
type PerUser = Keyed[int64]

// Keyed limits what each key (a learner, an account name, a client
// address) may do with the course's own token bucket
// (solutions/tokenbucket): Burst at once, then one more every Every. It is
// safe for concurrent use.
//
// The bucket counts whole tokens per second; a budget of one token every
// Every (say 30s) is a rate below one per second, so the bucket runs on a
// scaled clock where one "second" lasts Every: its nowNs is the real time
// since the throttle started times 10^9/Every.
//
// Keys may come from strangers (names typed at the sign-in form, client
// addresses): a bucket that has refilled to full is forgotten (a new one
// would be the same), so the map holds only keys with recent use.
type Keyed[K comparable] struct {
	Burst uint64
	Every time.Duration

	mu      sync.Mutex
	start   time.Time
	buckets map[K]*tokenbucket.TokenBucket
	swept   uint64 // the scaled time of the last sweep of full buckets
}

// sweepAbove is how many buckets a throttle holds before Allow forgets the
// full ones (at most once per Every).
const sweepAbove = 1024

// New returns a throttle allowing each user burst actions at once and one
// more every every, started at now.
func New(burst uint64, every time.Duration, now time.Time) *PerUser {
	return NewKeyed[int64](burst, every, now)
}

// NewKeyed returns a throttle allowing each key burst actions at
// once and one more every every, started at now.
func NewKeyed[K comparable](burst uint64, every time.Duration, now time.Time) *Keyed[K] {
	return &Keyed[K]{Burst: max(burst, 1), Every: max(every, time.Millisecond), start: now, buckets: map[K]*tokenbucket.TokenBucket{}}
}

// scaled is the bucket's clock at now: nanoseconds of "seconds" that last
// Every each.
func (t *Keyed[K]) scaled(now time.Time) uint64 {
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

// Allow takes a token for key at now. When it refuses, retry is how long
// until the next token (at least 1ms).
func (t *Keyed[K]) Allow(key K, now time.Time) (ok bool, retry time.Duration) {
	return t.AllowN(key, 1, now)
}

// AllowN takes n tokens for key at now (a budget of bytes, say, whose
// tokens are units of them), or none. When it refuses, retry is how long
// until there are n (at least 1ms). n over Burst is never allowed (retry
// is then how long the bucket takes to fill).
func (t *Keyed[K]) AllowN(key K, n uint64, now time.Time) (ok bool, retry time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v := t.scaled(now)
	t.sweep(v)
	b, found := t.buckets[key]
	if !found {
		b = tokenbucket.New(t.Burst, 1, v)
		t.buckets[key] = b
	}
	if n <= t.Burst && b.TryAcquire(v, n) {
		return true, 0
	}
	want := min(n, t.Burst)
	// The earliest scaled time with want whole tokens, found on copies of
	// the bucket (a probe at a later time would move the real one's clock
	// on).
	lo, hi := v, v+want*1e9 // at one token per scaled second, want are at most want*1e9 away
	for lo < hi {
		mid := lo + (hi-lo)/2
		probe := *b
		if probe.Available(mid) >= want {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	wait := time.Duration(float64(lo-v) / 1e9 * float64(t.Every))
	return false, max(wait, time.Millisecond)
}

// sweep forgets the buckets that are full at scaled time v, when there are
// many and the last sweep is at least one Every old. t.mu is held.
func (t *Keyed[K]) sweep(v uint64) {
	if len(t.buckets) <= sweepAbove || v-t.swept < 1e9 {
		return
	}
	t.swept = v
	for k, b := range t.buckets {
		if b.Available(v) >= t.Burst {
			delete(t.buckets, k)
		}
	}
}

// Len returns how many keys the throttle remembers.
func (t *Keyed[K]) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.buckets)
}
