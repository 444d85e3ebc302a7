package gateway

import "math/bits"

// unitsPerToken is the fixed-point scale: 1 token = 10^9 units, so that a
// refill of elapsedNs*ratePerSec units is exact.
const unitsPerToken = 1_000_000_000

// bucket is one budget of one session: the week-1 token bucket, its units
// held in 128 bits (hi, lo), refilled lazily up to the gateway's clock.
// The zero bucket with limited false is unlimited.
type bucket struct {
	limited      bool
	rate         uint64
	capHi, capLo uint64 // capacity*10^9
	hi, lo       uint64 // units held
	last         uint64 // the time the units are as of
}

// newBucket returns b's bucket, full at now.
func newBucket(b Budget, now uint64) bucket {
	if b.unlimited() {
		return bucket{last: now}
	}
	hi, lo := bits.Mul64(b.Capacity, unitsPerToken)
	return bucket{limited: true, rate: b.RatePerSec, capHi: hi, capLo: lo, hi: hi, lo: lo, last: now}
}

// refill adds what the time up to now earned, capped; now is never before
// b.last (the gateway's clock never moves back).
func (b *bucket) refill(now uint64) {
	pHi, pLo := bits.Mul64(now-b.last, b.rate)
	b.last = now
	lo, carry := bits.Add64(b.lo, pLo, 0)
	hi, carry := bits.Add64(b.hi, pHi, carry)
	_, borrow := bits.Sub64(b.capLo, lo, 0)
	_, borrow = bits.Sub64(b.capHi, hi, borrow)
	if carry|borrow != 0 {
		hi, lo = b.capHi, b.capLo
	}
	b.hi, b.lo = hi, lo
}

// take refills up to now and takes one token if there is one, reporting
// whether it did; when it did not, it also returns how long until one
// token is there.
func (b *bucket) take(now uint64) (ok bool, retryAfterNs uint64) {
	if !b.limited {
		return true, 0
	}
	b.refill(now)
	lo, borrow := bits.Sub64(b.lo, unitsPerToken, 0)
	hi, borrow := bits.Sub64(b.hi, 0, borrow)
	if borrow == 0 {
		b.hi, b.lo = hi, lo
		return true, 0
	}
	// Fewer than 10^9 units: hi is 0. The least d with lo+d*rate >= 10^9.
	need := unitsPerToken - b.lo
	d := need / b.rate
	if d*b.rate != need {
		d++
	}
	return false, d
}

// reload refills up to now at the old rate, then switches to nb: units
// kept and capped at the new capacity; a bucket that was unlimited starts
// full.
func (b *bucket) reload(nb Budget, now uint64) {
	if !b.limited || nb.unlimited() {
		*b = newBucket(nb, now)
		return
	}
	b.refill(now)
	capHi, capLo := bits.Mul64(nb.Capacity, unitsPerToken)
	_, borrow := bits.Sub64(capLo, b.lo, 0)
	_, borrow = bits.Sub64(capHi, b.hi, borrow)
	if borrow != 0 {
		b.hi, b.lo = capHi, capLo
	}
	b.rate, b.capHi, b.capLo = nb.RatePerSec, capHi, capLo
}
