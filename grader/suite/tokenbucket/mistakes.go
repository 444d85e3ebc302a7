package tokenbucket

import (
	"math/big"

	"ratelab/grader/check"
)

// mistakes are those learners make with a token bucket (see
// check.Mistake).
var mistakes = check.Mistakes(mistaken, []check.Mistake[New]{
	// capacity: starts full, never beyond capacity.
	{Name: "starts-empty", Pitfall: "capacity", Says: "starts empty instead of full"},
	{Name: "no-cap", Pitfall: "capacity", Says: "never caps what it holds at capacity"},
	{Name: "caps-before-refill", Pitfall: "capacity", Says: "caps what it held before adding a refill, not after, so that one refill can take it past its capacity"},
	// fractional-tokens: what a refill earns below a whole token is kept.
	{Name: "truncating-refill", Pitfall: "fractional-tokens", Says: "holds whole tokens only, adds elapsed×rate/10^9 rounded down at each refill and moves its clock to now, throwing the fraction away"},
	{Name: "whole-ns-clock", Pitfall: "fractional-tokens", Says: "holds whole tokens only and moves its clock by the whole nanoseconds the tokens it added took, rounded down, so that at rates that do not divide 10^9 it earns a little too much"},
	// partial-take: all n or none.
	{Name: "takes-whole-tokens", Pitfall: "partial-take", Says: "takes the whole tokens it holds when asked for more, then refuses"},
	{Name: "empties-on-refusal", Pitfall: "partial-take", Says: "empties itself when asked for more than it holds, then refuses"},
	// backward-time: a step back adds nothing and rewinds nothing.
	{Name: "rewinds-clock", Pitfall: "backward-time", Says: "moves its clock back to an earlier time, so that the time after it is earned a second time"},
	{Name: "wrapping-elapsed", Pitfall: "backward-time", Says: "takes now−latest without checking which is later, so that a step back wraps to a huge refill (a full bucket) and rewinds its clock"},
	// overflow: every product exact.
	{Name: "wrapping-refill", Pitfall: "overflow", Says: "computes elapsed×rate in 64 bits, which wraps"},
	{Name: "wrapping-capacity", Pitfall: "overflow", Says: "computes capacity×10^9 in 64 bits, which wraps"},
	{Name: "wrapping-request", Pitfall: "overflow", Says: "computes n×10^9 in 64 bits, which wraps"},
	{Name: "wrapping-units", Pitfall: "overflow", Says: "computes capacity×10^9, elapsed×rate and n×10^9 in 64 bits, each of which wraps"},
	// exactness: the rest of the contract.
	{Name: "available-rounds-half-up", Pitfall: "exactness", Says: "rounds Available to the nearest whole token instead of down"},
	{Name: "available-rounds-up", Pitfall: "exactness", Says: "rounds Available up instead of down"},
	{Name: "needs-more-than-n", Pitfall: "exactness", Says: "grants n tokens only when it holds more than n, not when it holds exactly n"},
	{Name: "refuses-zero-when-empty", Pitfall: "exactness", Says: "refuses every request, n = 0 too, while it holds no whole token"},
	{Name: "stale-available", Pitfall: "exactness", Says: "does not refill in Available: it reports what it held at the latest TryAcquire"},
})

// mistaken returns New for the model with the named mistake.
func mistaken(mistake string) New {
	return func(capacity, rate, now uint64) Bucket {
		b := &bucket{mistake: mistake, rate: rate, latest: now}
		b.capUnits = b.units64(capacity, "wrapping-capacity")
		b.units = new(big.Int).Set(b.capUnits)
		if mistake == "starts-empty" {
			b.units.SetInt64(0)
		}
		return b
	}
}

// bucket is the contract's bucket (model.Bucket) written again with a
// switch for each mistake.
type bucket struct {
	mistake         string
	units, capUnits *big.Int
	rate, latest    uint64
}

var wrap = new(big.Int).Lsh(big.NewInt(1), 64)

// product is a×b, exact, or modulo 2^64 with the mistakes named in
// wrapping (or wrapping-units, which wraps them all).
func (b *bucket) product(x, y uint64, wrapping string) *big.Int {
	p := new(big.Int).Mul(new(big.Int).SetUint64(x), new(big.Int).SetUint64(y))
	if b.mistake == wrapping || b.mistake == "wrapping-units" {
		p.Mod(p, wrap)
	}
	return p
}

// units64 is n tokens in units.
func (b *bucket) units64(n uint64, wrapping string) *big.Int {
	return b.product(n, 1_000_000_000, wrapping)
}

func (b *bucket) refill(now uint64) {
	if now <= b.latest {
		switch {
		case now == b.latest:
		case b.mistake == "rewinds-clock":
			b.latest = now
		case b.mistake == "wrapping-elapsed":
			b.add(b.product(now-b.latest, b.rate, ""))
			b.latest = now
		}
		return
	}
	earned := b.product(now-b.latest, b.rate, "wrapping-refill")
	switch b.mistake {
	case "truncating-refill":
		earned.Sub(earned, new(big.Int).Rem(earned, unitsPerToken))
	case "whole-ns-clock":
		// Full: the clock moves to now. No whole token yet: it stays.
		if b.units.Cmp(b.capUnits) >= 0 {
			b.latest = now
			return
		}
		q := new(big.Int).Quo(earned, unitsPerToken)
		if q.Sign() == 0 {
			return
		}
		room := new(big.Int).Sub(b.capUnits, b.units)
		if new(big.Int).Mul(q, unitsPerToken).Cmp(room) >= 0 {
			b.units.Set(b.capUnits)
			b.latest = now
			return
		}
		b.units.Add(b.units, new(big.Int).Mul(q, unitsPerToken))
		used := new(big.Int).Quo(new(big.Int).Mul(q, unitsPerToken), new(big.Int).SetUint64(b.rate))
		b.latest += used.Uint64()
		return
	}
	b.add(earned)
	b.latest = now
}

func (b *bucket) add(earned *big.Int) {
	if b.mistake == "caps-before-refill" {
		b.units.Set(bigMin(b.units, b.capUnits))
		b.units.Add(b.units, earned)
		return
	}
	b.units.Add(b.units, earned)
	if b.mistake != "no-cap" {
		b.units.Set(bigMin(b.units, b.capUnits))
	}
}

func bigMin(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}

func (b *bucket) TryAcquire(now, n uint64) bool {
	b.refill(now)
	if b.mistake == "refuses-zero-when-empty" && b.units.Cmp(unitsPerToken) < 0 {
		return false
	}
	need := b.units64(n, "wrapping-request")
	switch c := need.Cmp(b.units); {
	case c > 0 || c == 0 && n > 0 && b.mistake == "needs-more-than-n":
		switch b.mistake {
		case "takes-whole-tokens":
			b.units.Rem(b.units, unitsPerToken)
		case "empties-on-refusal":
			b.units.SetInt64(0)
		}
		return false
	}
	b.units.Sub(b.units, need)
	return true
}

func (b *bucket) Available(now uint64) uint64 {
	if b.mistake != "stale-available" {
		b.refill(now)
	}
	u := new(big.Int).Set(b.units)
	switch b.mistake {
	case "available-rounds-half-up":
		u.Add(u, big.NewInt(500_000_000))
	case "available-rounds-up":
		u.Add(u, big.NewInt(999_999_999))
	}
	return u.Quo(u, unitsPerToken).Uint64() // the low 64 bits, without the cap
}
