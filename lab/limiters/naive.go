package limiters

import (
	"math/bits"
	"strconv"
)

// unitsPerToken is the number of units in one token, as in the week 1
// exercise: a refill of elapsedNs*ratePerSec units is exact.
const unitsPerToken = 1_000_000_000

// Credit is an exact amount of token credit: Tokens whole tokens plus Units
// billionths of a token, with Units always below 10^9. The zero value is no
// credit.
type Credit struct {
	Tokens uint64
	Units  uint64
}

// add adds units billionths of a token, saturating at the largest Credit.
func (c *Credit) add(units uint64) {
	c.Units += units % unitsPerToken
	whole := units/unitsPerToken + c.Units/unitsPerToken
	c.Units %= unitsPerToken
	t, carry := bits.Add64(c.Tokens, whole, 0)
	if carry != 0 {
		c.Tokens, c.Units = ^uint64(0), unitsPerToken-1
		return
	}
	c.Tokens = t
}

// String formats c in tokens as an exact decimal with no trailing zeros,
// such as "0", "12" or "999.9".
func (c Credit) String() string {
	s := strconv.FormatUint(c.Tokens, 10)
	if c.Units == 0 {
		return s
	}
	frac := strconv.FormatUint(c.Units+unitsPerToken, 10)[1:] // nine digits
	for frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	return s + "." + frac
}

// NaiveBucket is a token bucket with the classic refill bug of week 1: it
// adds elapsedNs*ratePerSec/10^9 tokens rounded down to a whole number and
// then sets its latest time to now, so the fraction of a token earned since
// the last call is thrown away. A client calling more often than once per
// token never gets a token back. It keeps count of what it threw away, in
// units, so the loss can be shown exactly.
//
// Only the rounding is naive: the product is taken in 128 bits, so a long
// idle neither overflows nor wraps, and a time at or before the latest seen
// adds nothing. A fraction is counted as lost only when the bucket is not
// full after the refill, because an exact bucket would have capped it away
// too. It starts full. The zero value is a bucket of capacity 0.
type NaiveBucket struct {
	capacity uint64
	rate     uint64 // tokens per second
	tokens   uint64
	latestNs uint64
	lost     Credit
}

// NewNaiveBucket returns a full naive bucket of capacity tokens refilled at
// ratePerSec tokens per second, with nowNs as the latest time seen.
func NewNaiveBucket(capacity, ratePerSec, nowNs uint64) *NaiveBucket {
	return &NaiveBucket{capacity: capacity, rate: ratePerSec, tokens: capacity, latestNs: nowNs}
}

// refill adds the whole tokens earned since the latest time seen, drops the
// fraction (recording it as lost) and makes nowNs the latest time seen.
func (b *NaiveBucket) refill(nowNs uint64) {
	if nowNs <= b.latestNs {
		return
	}
	hi, lo := bits.Mul64(nowNs-b.latestNs, b.rate)
	b.latestNs = nowNs // the bug: the fraction earned is not carried over
	if hi >= unitsPerToken {
		b.tokens = b.capacity // at least 2^64 tokens earned
		return
	}
	whole, frac := bits.Div64(hi, lo, unitsPerToken)
	if t, carry := bits.Add64(b.tokens, whole, 0); carry == 0 && t < b.capacity {
		b.tokens = t
		b.lost.add(frac)
		return
	}
	b.tokens = b.capacity
}

// TryAcquire refills naively for the time up to nowNs, then takes one token
// if there is one, and reports whether it did.
func (b *NaiveBucket) TryAcquire(nowNs uint64) bool {
	b.refill(nowNs)
	if b.tokens == 0 {
		return false
	}
	b.tokens--
	return true
}

// Tokens returns the whole tokens the bucket would hold after a naive
// refill at nowNs. It changes nothing.
func (b *NaiveBucket) Tokens(nowNs uint64) uint64 {
	c := *b
	c.refill(nowNs)
	return c.tokens
}

// Lost returns the credit that rounding has thrown away so far.
func (b *NaiveBucket) Lost() Credit { return b.lost }
