package tokenbucket

import (
	"math"
	"math/big"
)

// unitsPerToken is the contract's fixed-point scale: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

// model is the contract's token bucket, written for clarity, not speed.
type model struct {
	units    *big.Int // u
	capUnits *big.Int // capacity * 10^9
	rate     *big.Int
	latest   uint64 // latest time seen
}

func newModel(capacity, rate, now uint64) *model {
	c := new(big.Int).Mul(new(big.Int).SetUint64(capacity), unitsPerToken)
	return &model{units: new(big.Int).Set(c), capUnits: c, rate: new(big.Int).SetUint64(rate), latest: now}
}

// advance adds (now-latest)*rate units, capped, if now is later than any
// time seen; otherwise it changes nothing.
func (m *model) advance(now uint64) {
	if now <= m.latest {
		return
	}
	add := new(big.Int).Mul(new(big.Int).SetUint64(now-m.latest), m.rate)
	m.units.Add(m.units, add)
	if m.units.Cmp(m.capUnits) > 0 {
		m.units.Set(m.capUnits)
	}
	m.latest = now
}

func (m *model) tryAcquire(now, n uint64) bool {
	m.advance(now)
	need := new(big.Int).Mul(new(big.Int).SetUint64(n), unitsPerToken)
	if need.Cmp(m.units) > 0 {
		return false
	}
	m.units.Sub(m.units, need)
	return true
}

func (m *model) available(now uint64) uint64 {
	m.advance(now)
	return new(big.Int).Quo(m.units, unitsPerToken).Uint64() // <= capacity, fits
}

// roomNs returns the longest wait, in whole ns, after which a refill would
// not yet reach the capacity (MaxUint64 if that is longer than any wait).
func (m *model) roomNs() uint64 {
	if m.rate.Sign() == 0 {
		return math.MaxUint64
	}
	room := new(big.Int).Sub(m.capUnits, m.units)
	ns := room.Quo(room, m.rate)
	if !ns.IsUint64() {
		return math.MaxUint64
	}
	return ns.Uint64()
}

// nsToNextToken returns the shortest wait after which the model holds one
// more whole token than now (MaxUint64 if it never will): the nanosecond
// where an off-by-one in time or a unit gained by rounding shows.
func (m *model) nsToNextToken() uint64 {
	if m.rate.Sign() == 0 {
		return math.MaxUint64
	}
	missing := new(big.Int).Sub(unitsPerToken, new(big.Int).Rem(m.units, unitsPerToken))
	ns := new(big.Int).Add(missing, new(big.Int).Sub(m.rate, big.NewInt(1)))
	ns.Quo(ns, m.rate)
	if !ns.IsUint64() {
		return math.MaxUint64
	}
	return ns.Uint64()
}
