package tokenbucket

import "math/bits"

const perToken = 1_000_000_000

// TokenBucket keeps whole tokens and, beside them, the units of the token
// being earned (always below 10^9; zero when the bucket is full).
type TokenBucket struct {
	capacity uint64
	rate     uint64
	latest   uint64
	whole    uint64
	part     uint64
}

// New returns a full bucket.
func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: ratePerSec, latest: nowNs, whole: capacity}
}

func (b *TokenBucket) refill(nowNs uint64) {
	if nowNs <= b.latest {
		return
	}
	if b.whole == b.capacity {
		return // full already: nothing to add
	}
	elapsed := nowNs - b.latest
	b.latest = nowNs
	hi, lo := bits.Mul64(elapsed, b.rate)
	if hi >= perToken {
		b.whole, b.part = b.capacity, 0
		return
	}
	q, r := bits.Div64(hi, lo, perToken)
	room := b.capacity - b.whole
	if q >= room {
		b.whole, b.part = b.capacity, 0
		return
	}
	r += b.part
	if r >= perToken {
		r -= perToken
		q++
	}
	if q == room {
		b.whole, b.part = b.capacity, 0
		return
	}
	b.whole += q
	b.part = r
}

// TryAcquire takes n whole tokens if there are that many: the part below a
// token never makes up for a missing one.
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {
	b.refill(nowNs)
	if n > b.whole {
		return false
	}
	b.whole -= n
	return true
}

// Available returns the whole tokens held.
func (b *TokenBucket) Available(nowNs uint64) uint64 {
	b.refill(nowNs)
	return b.whole
}
