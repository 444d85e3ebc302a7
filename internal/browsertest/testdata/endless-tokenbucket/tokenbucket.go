// Package tokenbucket (browser-test fixture endless-tokenbucket): the
// reference token bucket (ratelab/solutions/tokenbucket), except that
// TryAcquire never returns once the clock reaches one second (an endless
// loop with no call in it: Go's WebAssembly cannot preempt it). The worker
// test builds it into lab.wasm as Yours.
package tokenbucket

import ref "ratelab/solutions/tokenbucket"

// TokenBucket is the reference's, Available included; only TryAcquire
// differs.
type TokenBucket struct {
	*ref.TokenBucket
	spins uint64
}

func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	return &TokenBucket{TokenBucket: ref.New(capacity, ratePerSec, nowNs)}
}

// endlessFromNs is the clock from which TryAcquire never returns.
const endlessFromNs = 1_000_000_000

func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {
	for nowNs >= endlessFromNs {
		b.spins++ // the bug: a loop whose condition never changes
	}
	return b.TokenBucket.TryAcquire(nowNs, n)
}
