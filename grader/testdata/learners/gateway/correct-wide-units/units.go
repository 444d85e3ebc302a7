package gateway

import "math/bits"

const perToken = 1e9

// u128 is an unsigned 128-bit number of units.
type u128 struct{ hi, lo uint64 }

func mul(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func (a u128) less(b u128) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

// plus adds b to a, saturating at the largest u128.
func (a u128) plus(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, c := bits.Add64(a.hi, b.hi, c)
	if c != 0 {
		return u128{^uint64(0), ^uint64(0)}
	}
	return u128{hi, lo}
}

func (a u128) minus(b u128) u128 {
	lo, br := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, br)
	return u128{hi, lo}
}

func minU(a, b u128) u128 {
	if b.less(a) {
		return b
	}
	return a
}

// budget is a token bucket counted in units; limit is Capacity*1e9.
type budget struct {
	limited bool
	limit   u128
	rate    uint64
	units   u128
	at      uint64
}

func makeBudget(b Budget, now uint64) budget {
	full := mul(b.Capacity, perToken)
	return budget{limited: b.Capacity != 0, limit: full, rate: b.RatePerSec, units: full, at: now}
}

func (b *budget) earn(now uint64) {
	if now > b.at {
		if b.limited {
			b.units = minU(b.limit, b.units.plus(mul(now-b.at, b.rate)))
		}
		b.at = now
	}
}

var oneToken = u128{0, perToken}

func (b *budget) spend() bool {
	if !b.limited {
		return true
	}
	if b.units.less(oneToken) {
		return false
	}
	b.units = b.units.minus(oneToken)
	return true
}

func (b *budget) wait() uint64 {
	short := perToken - b.units.lo // units < one token here
	return (short-1)/b.rate + 1
}

func (b *budget) reconfigure(nb Budget) {
	was := b.limited
	full := mul(nb.Capacity, perToken)
	b.limited, b.limit, b.rate = nb.Capacity != 0, full, nb.RatePerSec
	switch {
	case !b.limited:
	case !was:
		b.units = full
	default:
		b.units = minU(b.units, full)
	}
}
