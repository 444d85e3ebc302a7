package gcra

import "fmt"

// GCRA keeps, in nanoseconds, how far its schedule runs ahead of the latest
// time seen.
type GCRA struct {
	emission  uint64 // T = 10^9 / ratePerSec, in ns
	tolerance uint64 // tau = (burst-1)*T
	latest    uint64
	ahead     uint64 // max(TAT-latest, 0)
}

// New returns a limiter that can grant burst calls at nowNs.
func New(ratePerSec, burst, nowNs uint64) *GCRA {
	if ratePerSec < 1 || ratePerSec > 1_000_000_000 {
		panic(fmt.Sprintf("gcra: ratePerSec must be in [1, 1e9], got %d", ratePerSec))
	}
	if burst < 1 || burst > 1_000_000 {
		panic(fmt.Sprintf("gcra: burst must be in [1, 1e6], got %d", burst))
	}
	t := 1_000_000_000 / ratePerSec
	return &GCRA{emission: t, tolerance: (burst - 1) * t, latest: nowNs}
}

// TryAcquire reports whether a call at nowNs conforms, and counts it if so.
func (g *GCRA) TryAcquire(nowNs uint64) bool {
	if nowNs > g.latest {
		elapsed := nowNs - g.latest
		if elapsed >= g.ahead {
			g.ahead = 0
		} else {
			g.ahead -= elapsed
		}
		g.latest = nowNs
	}
	if g.ahead > g.tolerance {
		return false
	}
	g.ahead += g.emission
	return true
}
