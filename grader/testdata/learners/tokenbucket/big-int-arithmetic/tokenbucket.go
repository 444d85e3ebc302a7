package tokenbucket

import "math/big"

var billion = big.NewInt(1_000_000_000)

// TokenBucket does its sums with math/big so that nothing can overflow.
type TokenBucket struct {
	units    *big.Int // held, in 10^-9 tokens
	max      *big.Int // capacity in units
	rate     uint64
	lastSeen uint64
}

// New returns a full bucket.
func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	max := new(big.Int).Mul(new(big.Int).SetUint64(capacity), billion)
	return &TokenBucket{
		units:    new(big.Int).Set(max),
		max:      max,
		rate:     ratePerSec,
		lastSeen: nowNs,
	}
}

func (b *TokenBucket) refill(nowNs uint64) {
	if nowNs <= b.lastSeen {
		return
	}
	earned := new(big.Int).SetUint64(nowNs - b.lastSeen)
	earned.Mul(earned, new(big.Int).SetUint64(b.rate))
	b.units.Add(b.units, earned)
	if b.units.Cmp(b.max) > 0 {
		b.units.Set(b.max)
	}
	b.lastSeen = nowNs
}

// TryAcquire takes n tokens if all are there.
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {
	b.refill(nowNs)
	want := new(big.Int).Mul(new(big.Int).SetUint64(n), billion)
	if want.Cmp(b.units) > 0 {
		return false
	}
	b.units.Sub(b.units, want)
	return true
}

// Available returns the whole tokens held.
func (b *TokenBucket) Available(nowNs uint64) uint64 {
	b.refill(nowNs)
	return new(big.Int).Quo(b.units, billion).Uint64()
}
