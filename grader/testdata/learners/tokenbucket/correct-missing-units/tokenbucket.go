package tokenbucket

import "math/bits"

const nano = 1_000_000_000

// TokenBucket remembers how far it is from full rather than what it holds:
// missing is capacity*10^9 minus the units held, kept in 128 bits.
type TokenBucket struct {
	capacity uint64
	rate     uint64
	seen     uint64
	missHi   uint64
	missLo   uint64
}

// New returns a full bucket: nothing is missing.
func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	return &TokenBucket{capacity: capacity, rate: ratePerSec, seen: nowNs}
}

// advance pays back what the time since the latest call earned.
func (b *TokenBucket) advance(nowNs uint64) {
	if nowNs > b.seen {
		eh, el := bits.Mul64(nowNs-b.seen, b.rate)
		b.seen = nowNs
		if eh > b.missHi || (eh == b.missHi && el >= b.missLo) {
			b.missHi, b.missLo = 0, 0
		} else {
			var borrow uint64
			b.missLo, borrow = bits.Sub64(b.missLo, el, 0)
			b.missHi -= eh + borrow
		}
	}
}

// TryAcquire takes n tokens when missing+n*10^9 still fits in the capacity.
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {
	b.advance(nowNs)
	if n > b.capacity {
		return false
	}
	nh, nl := bits.Mul64(n, nano)
	sl, c := bits.Add64(b.missLo, nl, 0)
	sh := b.missHi + nh + c
	ch, cl := bits.Mul64(b.capacity, nano)
	if sh > ch || (sh == ch && sl > cl) {
		return false
	}
	b.missHi, b.missLo = sh, sl
	return true
}

// Available returns (capacity*10^9 - missing) / 10^9.
func (b *TokenBucket) Available(nowNs uint64) uint64 {
	b.advance(nowNs)
	ch, cl := bits.Mul64(b.capacity, nano)
	hl, borrow := bits.Sub64(cl, b.missLo, 0)
	hh, _ := bits.Sub64(ch, b.missHi, borrow)
	q, _ := bits.Div64(hh, hl, nano)
	return q
}
