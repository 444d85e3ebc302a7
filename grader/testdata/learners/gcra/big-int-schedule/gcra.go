package gcra

import (
	"fmt"
	"math/big"
)

// GCRA keeps the theoretical arrival time in ticks of 1/ratePerSec ns as a
// big.Int, so it never overflows.
type GCRA struct {
	rate *big.Int
	tau  *big.Int // (burst-1)*10^9 ticks
	tat  *big.Int
	last uint64
}

var oneInterval = big.NewInt(1_000_000_000)

// New returns a limiter that can grant burst calls at nowNs.
func New(ratePerSec, burst, nowNs uint64) *GCRA {
	if ratePerSec == 0 || ratePerSec > 1_000_000_000 {
		panic(fmt.Sprintf("gcra: ratePerSec must be in [1, 1e9], got %d", ratePerSec))
	}
	if burst == 0 || burst > 1_000_000 {
		panic(fmt.Sprintf("gcra: burst must be in [1, 1e6], got %d", burst))
	}
	tau := new(big.Int).SetUint64(burst - 1)
	tau.Mul(tau, oneInterval)
	return &GCRA{rate: new(big.Int).SetUint64(ratePerSec), tau: tau, tat: new(big.Int), last: nowNs}
}

// TryAcquire reports whether a call at nowNs conforms, and counts it if so.
func (g *GCRA) TryAcquire(nowNs uint64) bool {
	if nowNs < g.last {
		nowNs = g.last
	}
	g.last = nowNs
	now := new(big.Int).SetUint64(nowNs)
	now.Mul(now, g.rate)
	tat := new(big.Int).Set(g.tat)
	if tat.Cmp(now) < 0 {
		tat.Set(now)
	}
	if new(big.Int).Sub(tat, now).Cmp(g.tau) > 0 {
		return false
	}
	g.tat = tat.Add(tat, oneInterval)
	return true
}
