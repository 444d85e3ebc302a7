package tokenbucket

import "math/bits"

// unitsPerToken is the number of units in one token. A refill of
// elapsedNs*ratePerSec units is then exactly elapsedNs nanoseconds' worth of
// tokens at ratePerSec tokens per second, with no division and no rounding.
const unitsPerToken = 1_000_000_000

// TokenBucket is a token bucket of a fixed capacity (in tokens) refilled at a
// fixed rate (in tokens per second) against a caller-supplied clock in
// nanoseconds.
//
// It holds its content u in units, 10^9 to a token, as a 128-bit number:
// the cap, capacity*10^9, passes 2^64 once capacity exceeds about 1.8*10^10,
// and a refill of elapsed*rate units passes it after a day idle at 10^6
// tokens per second. 128 bits hold both, and keep the hot path to two
// multiplications, additions and comparisons: no division.
//
// The zero value is a bucket of capacity 0: it grants only requests for 0
// tokens. Use New to make a useful one. A TokenBucket is not safe for
// concurrent use: callers that share one must serialise access.
type TokenBucket struct {
	rate         uint64 // tokens per second, which is units per nanosecond
	capHi, capLo uint64 // capacity*10^9 units, high and low 64 bits
	hi, lo       uint64 // units held, at most capHi:capLo
	latestNs     uint64 // latest time seen; never moves back
}

// New returns a full bucket of capacity tokens that refills at ratePerSec
// tokens per second, with nowNs as the latest time seen. Every uint64 value
// of every argument is accepted.
func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	capHi, capLo := bits.Mul64(capacity, unitsPerToken)
	return &TokenBucket{
		rate:     ratePerSec,
		capHi:    capHi,
		capLo:    capLo,
		hi:       capHi,
		lo:       capLo,
		latestNs: nowNs,
	}
}

// refill makes nowNs the latest time seen and returns the units held then:
// those held before plus those earned since, capped at capacity*10^9. The
// caller stores them back, after taking what it takes. It has no branch
// but the cap, and is small enough for the compiler to inline.
func (b *TokenBucket) refill(nowNs uint64) (hi, lo uint64) {
	// A time at or before the latest one counts as the latest: it adds
	// nothing and rewinds nothing. (An injected clock may step back, and
	// nowNs-latestNs would then wrap around to a huge refill.)
	nowNs = max(nowNs, b.latestNs)

	// u += elapsed*rate in 128 bits. The sum itself can pass 2^128 (the
	// product alone nearly reaches it), which the final carry reports.
	pHi, pLo := bits.Mul64(nowNs-b.latestNs, b.rate)
	b.latestNs = nowNs
	lo, carry := bits.Add64(b.lo, pLo, 0)
	hi, carry = bits.Add64(b.hi, pHi, carry)

	// Cap at capacity*10^9: a borrow out of cap-u means u > cap.
	_, borrow := bits.Sub64(b.capLo, lo, 0)
	_, borrow = bits.Sub64(b.capHi, hi, borrow)
	if carry|borrow != 0 {
		return b.capHi, b.capLo
	}
	return hi, lo
}

// TryAcquire refills the bucket for the time up to nowNs, then takes n tokens
// if all n are available, and reports whether it did. When fewer than n are
// available it takes none. A request for 0 tokens always succeeds.
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {
	hi, lo := b.refill(nowNs)
	// n*10^9 passes 2^64 once n exceeds about 1.8*10^10: 128 bits again.
	nHi, nLo := bits.Mul64(n, unitsPerToken)
	restLo, borrow := bits.Sub64(lo, nLo, 0)
	restHi, borrow := bits.Sub64(hi, nHi, borrow)
	// A borrow means n*10^9 > u: take nothing. The outcome is as
	// unpredictable as the traffic, so no branch depends on it: the
	// compiler turns this if into conditional moves.
	ok := borrow == 0
	if ok {
		hi, lo = restHi, restLo
	}
	b.hi, b.lo = hi, lo
	return ok
}

// Available refills the bucket for the time up to nowNs and returns the
// number of whole tokens it holds, u/10^9 rounded down. It takes none.
func (b *TokenBucket) Available(nowNs uint64) uint64 {
	hi, lo := b.refill(nowNs)
	b.hi, b.lo = hi, lo
	if hi == 0 {
		return lo / unitsPerToken // division by a constant: a multiply
	}
	// u <= capacity*10^9, so the quotient fits 64 bits, as Div64 requires.
	q, _ := bits.Div64(hi, lo, unitsPerToken)
	return q
}
