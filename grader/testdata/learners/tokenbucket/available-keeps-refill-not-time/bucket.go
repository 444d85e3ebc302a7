package tokenbucket

import "math/bits"

const unitsPerToken = 1_000_000_000

// TokenBucket counts its content in units of 10^-9 token, as a 128-bit
// number split into a high and a low word.
type TokenBucket struct {
	capHi, capLo uint64 // capacity in units
	hi, lo       uint64 // units held
	rate         uint64
	latest       uint64
}

// New returns a full bucket.
func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	hi, lo := bits.Mul64(capacity, unitsPerToken)
	return &TokenBucket{capHi: hi, capLo: lo, hi: hi, lo: lo, rate: ratePerSec, latest: nowNs}
}

func less(aHi, aLo, bHi, bLo uint64) bool {
	return aHi < bHi || (aHi == bHi && aLo < bLo)
}

func (b *TokenBucket) refill(nowNs uint64) {
	if nowNs <= b.latest {
		return
	}
	ph, pl := bits.Mul64(nowNs-b.latest, b.rate)
	b.latest = nowNs
	lo, carry := bits.Add64(b.lo, pl, 0)
	hi, over := bits.Add64(b.hi, ph, carry)
	if over != 0 || less(b.capHi, b.capLo, hi, lo) {
		hi, lo = b.capHi, b.capLo
	}
	b.hi, b.lo = hi, lo
}

// TryAcquire refills, then takes n tokens if all n are there.
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {
	b.refill(nowNs)
	nh, nl := bits.Mul64(n, unitsPerToken)
	if less(b.hi, b.lo, nh, nl) {
		return false
	}
	var borrow uint64
	b.lo, borrow = bits.Sub64(b.lo, nl, 0)
	b.hi, _ = bits.Sub64(b.hi, nh, borrow)
	return true
}

// Available refills, then returns the whole tokens held.
func (b *TokenBucket) Available(nowNs uint64) uint64 {
	if nowNs > b.latest {
		ph, pl := bits.Mul64(nowNs-b.latest, b.rate)
		lo, carry := bits.Add64(b.lo, pl, 0)
		hi, over := bits.Add64(b.hi, ph, carry)
		if over != 0 || less(b.capHi, b.capLo, hi, lo) {
			hi, lo = b.capHi, b.capLo
		}
		b.hi, b.lo = hi, lo
	}
	q, _ := bits.Div64(b.hi, b.lo, unitsPerToken)
	return q
}
