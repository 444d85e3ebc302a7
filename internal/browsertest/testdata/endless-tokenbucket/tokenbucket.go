// Package tokenbucket (browser-test fixture endless-tokenbucket): the
// grader's correct-split fixture, except that TryAcquire never returns once
// the clock reaches one second (an endless loop with no call in it: Go's
// WebAssembly cannot preempt it). The worker test builds it into lab.wasm
// as Yours.
package tokenbucket

import "math/bits"

type TokenBucket struct {
	tokens, frac, capacity, rate, latest uint64
}

func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	return &TokenBucket{tokens: capacity, capacity: capacity, rate: ratePerSec, latest: nowNs}
}

func (b *TokenBucket) refill(now uint64) {
	if now <= b.latest {
		return
	}
	hi, lo := bits.Mul64(now-b.latest, b.rate)
	b.latest = now
	if hi >= 1_000_000_000 {
		b.tokens, b.frac = b.capacity, 0
		return
	}
	q, r := bits.Div64(hi, lo, 1_000_000_000)
	b.frac += r
	if b.frac >= 1_000_000_000 {
		b.frac -= 1_000_000_000
		q++
	}
	if q >= b.capacity-b.tokens {
		b.tokens, b.frac = b.capacity, 0
	} else {
		b.tokens += q
	}
}

// endlessFromNs is the clock from which TryAcquire never returns.
const endlessFromNs = 1_000_000_000

func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {
	for nowNs >= endlessFromNs {
		b.frac++ // the bug: a loop whose condition never changes
	}
	b.refill(nowNs)
	if n > b.tokens {
		return false
	}
	b.tokens -= n
	return true
}

func (b *TokenBucket) Available(nowNs uint64) uint64 {
	b.refill(nowNs)
	return b.tokens
}
