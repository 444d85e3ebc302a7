package gateway

import (
	"math"
	"math/bits"
)

const unit = 1_000_000_000 // units per token

// bucket is a token bucket holding tokens + frac/unit tokens.
type bucket struct {
	capacity, rate uint64 // capacity 0: unlimited
	tokens, frac   uint64
	last           uint64
}

func newBucket(b Budget, now uint64) bucket {
	return bucket{capacity: b.Capacity, rate: b.RatePerSec, tokens: b.Capacity, last: now}
}

func (b *bucket) fill() { b.tokens, b.frac = b.capacity, 0 }

func (b *bucket) refill(now uint64) {
	if now <= b.last {
		return
	}
	elapsed := now - b.last
	b.last = now
	if b.capacity == 0 || b.tokens >= b.capacity {
		return
	}
	hi, lo := bits.Mul64(elapsed, b.rate)
	if hi >= unit {
		b.fill()
		return
	}
	q, r := bits.Div64(hi, lo, unit)
	f := b.frac + r
	if f >= unit {
		if q == math.MaxUint64 {
			b.fill()
			return
		}
		f -= unit
		q++
	}
	if q >= b.capacity-b.tokens {
		b.fill()
		return
	}
	b.tokens += q
	b.frac = f
}

func (b *bucket) take() bool {
	if b.capacity == 0 {
		return true
	}
	if b.tokens == 0 {
		return false
	}
	b.tokens--
	return true
}

// retryAfter is the ns until an empty bucket holds one whole token.
func (b *bucket) retryAfter() uint64 {
	need := unit - b.frac
	d := need / b.rate
	if need%b.rate != 0 {
		d++
	}
	return d
}

// switchTo moves the bucket to new budget nb, keeping its units capped.
func (b *bucket) switchTo(nb Budget) {
	wasUnlimited := b.capacity == 0
	b.capacity, b.rate = nb.Capacity, nb.RatePerSec
	if nb.Capacity == 0 {
		return
	}
	if wasUnlimited || b.tokens >= nb.Capacity {
		b.fill()
	}
}
