package gcra

import "math/big"

// unitsPerToken is the token bucket's fixed-point scale: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

// model is the token bucket the contract equates a GCRA with (capacity =
// burst, n = 1), written for clarity, not speed.
type model struct {
	units    *big.Int // what the bucket holds
	capUnits *big.Int // burst * 10^9
	rate     *big.Int
	latest   uint64 // latest time seen
}

func newModel(rate, burst, now uint64) *model {
	c := new(big.Int).Mul(new(big.Int).SetUint64(burst), unitsPerToken)
	return &model{units: new(big.Int).Set(c), capUnits: c, rate: new(big.Int).SetUint64(rate), latest: now}
}

// advance adds (now-latest)*rate units, capped, if now is later than any
// time seen; otherwise it changes nothing.
func (m *model) advance(now uint64) {
	if now <= m.latest {
		return
	}
	m.units.Add(m.units, new(big.Int).Mul(new(big.Int).SetUint64(now-m.latest), m.rate))
	if m.units.Cmp(m.capUnits) > 0 {
		m.units.Set(m.capUnits)
	}
	m.latest = now
}

func (m *model) tryAcquire(now uint64) bool {
	m.advance(now)
	if m.units.Cmp(unitsPerToken) < 0 {
		return false
	}
	m.units.Sub(m.units, unitsPerToken)
	return true
}

// untilToken returns how many nanoseconds after the latest time seen the
// bucket first holds a whole token: 0 if it holds one already.
func (m *model) untilToken() uint64 {
	need := new(big.Int).Sub(unitsPerToken, m.units)
	if need.Sign() <= 0 {
		return 0
	}
	need.Add(need, m.rate).Sub(need, big.NewInt(1))
	return need.Quo(need, m.rate).Uint64() // <= 10^9
}
