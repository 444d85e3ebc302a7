package gcra

import (
	"fmt"
	"math/bits"
)

// One emission interval, in ticks of 1/ratePerSec nanosecond: a nanosecond is
// ratePerSec ticks, so the interval is exact for every rate.
const interval = 1_000_000_000

// GCRA keeps its schedule relative to the latest time seen: ahead is how
// far the theoretical arrival time runs ahead of latest, in ticks (0 when it
// is behind).
type GCRA struct {
	rate   uint64
	tau    uint64 // (burst-1) intervals, in ticks
	latest uint64
	ahead  uint64
}

// New returns a limiter that can grant burst calls at nowNs.
func New(ratePerSec, burst, nowNs uint64) *GCRA {
	if ratePerSec < 1 || ratePerSec > 1_000_000_000 {
		panic(fmt.Sprintf("gcra: ratePerSec must be in [1, 1e9], got %d", ratePerSec))
	}
	if burst < 1 || burst > 1_000_000 {
		panic(fmt.Sprintf("gcra: burst must be in [1, 1e6], got %d", burst))
	}
	return &GCRA{rate: ratePerSec, tau: (burst - 1) * interval, latest: nowNs}
}

// TryAcquire reports whether a call at nowNs conforms, and counts it if so.
func (g *GCRA) TryAcquire(nowNs uint64) bool {
	if nowNs > g.latest {
		hi, lo := bits.Mul64(nowNs-g.latest, g.rate)
		if hi != 0 || lo >= g.ahead {
			g.ahead = 0
		} else {
			g.ahead -= lo
		}
		g.latest = nowNs
	}
	g.ahead += interval // TAT = max(TAT, now) + T
	if g.ahead > g.tau+interval {
		return false
	}
	return true
}
