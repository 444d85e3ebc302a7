package model

import (
	"math"
	"math/big"
)

// unitsPerToken is the contract's fixed-point scale: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

// Bucket is the contract's token bucket (the doc of exercises/tokenbucket): it
// holds Units, at most capacity×10^9, refilled by (now−latest)×rate units
// when a call comes later than any time seen. The GCRA suite uses it too,
// since a GCRA must decide as Bucket(burst, rate) taking one token.
type Bucket struct {
	units    *big.Int // u
	capUnits *big.Int // capacity * 10^9
	rate     *big.Int
	latest   uint64 // latest time seen
}

// NewBucket returns a full bucket with now as the latest time seen.
func NewBucket(capacity, rate, now uint64) *Bucket {
	c := new(big.Int).Mul(new(big.Int).SetUint64(capacity), unitsPerToken)
	return &Bucket{units: new(big.Int).Set(c), capUnits: c, rate: new(big.Int).SetUint64(rate), latest: now}
}

// advance adds (now-latest)*rate units, capped, if now is later than any
// time seen; otherwise it changes nothing.
func (m *Bucket) advance(now uint64) {
	if now <= m.latest {
		return
	}
	m.units.Add(m.units, new(big.Int).Mul(new(big.Int).SetUint64(now-m.latest), m.rate))
	if m.units.Cmp(m.capUnits) > 0 {
		m.units.Set(m.capUnits)
	}
	m.latest = now
}

// TryAcquire refills up to now, then takes n tokens if all n are there.
func (m *Bucket) TryAcquire(now, n uint64) bool {
	m.advance(now)
	need := new(big.Int).Mul(new(big.Int).SetUint64(n), unitsPerToken)
	if need.Cmp(m.units) > 0 {
		return false
	}
	m.units.Sub(m.units, need)
	return true
}

// Available refills up to now and returns the whole tokens held.
func (m *Bucket) Available(now uint64) uint64 {
	m.advance(now)
	return new(big.Int).Quo(m.units, unitsPerToken).Uint64() // <= capacity, fits
}

// Units returns the units held as of the latest time (a copy).
func (m *Bucket) Units() *big.Int { return new(big.Int).Set(m.units) }

// CapUnits returns the units of a full bucket, capacity×10^9 (a copy).
func (m *Bucket) CapUnits() *big.Int { return new(big.Int).Set(m.capUnits) }

// Latest returns the latest time seen.
func (m *Bucket) Latest() uint64 { return m.latest }

// Room returns the units missing to a full bucket, as of the latest time.
func (m *Bucket) Room() *big.Int { return new(big.Int).Sub(m.capUnits, m.units) }

// RoomNs returns the longest wait, in whole ns, after which a refill would
// not yet pass the capacity (MaxUint64 if that is longer than any wait).
func (m *Bucket) RoomNs() uint64 {
	if m.rate.Sign() == 0 {
		return math.MaxUint64
	}
	ns := m.Room()
	ns.Quo(ns, m.rate)
	if !ns.IsUint64() {
		return math.MaxUint64
	}
	return ns.Uint64()
}

// NsToNextToken returns the shortest wait after which the bucket holds one
// more whole token than now (MaxUint64 if it never will): the nanosecond
// where an off-by-one in time or a unit gained by rounding shows.
func (m *Bucket) NsToNextToken() uint64 {
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

// UntilToken returns how long after the latest time the bucket first holds
// a whole token: 0 if it holds one already.
func (m *Bucket) UntilToken() uint64 {
	if m.units.Cmp(unitsPerToken) >= 0 {
		return 0
	}
	return m.NsToNextToken()
}
