package gcra

import "fmt"

// GCRA keeps its theoretical arrival time in float64 nanoseconds, which
// handles any rate without integer division.
type GCRA struct {
	t      float64 // emission interval, ns
	tau    float64 // burst tolerance, ns
	tat    float64
	latest uint64
}

// New returns a limiter that can grant burst calls at nowNs.
func New(ratePerSec, burst, nowNs uint64) *GCRA {
	if ratePerSec < 1 || ratePerSec > 1e9 {
		panic(fmt.Sprintf("gcra: ratePerSec must be in [1, 1e9], got %d", ratePerSec))
	}
	if burst < 1 || burst > 1e6 {
		panic(fmt.Sprintf("gcra: burst must be in [1, 1e6], got %d", burst))
	}
	t := 1e9 / float64(ratePerSec)
	return &GCRA{t: t, tau: float64(burst-1) * t, latest: nowNs}
}

// TryAcquire reports whether a call at nowNs conforms, and counts it if so.
func (g *GCRA) TryAcquire(nowNs uint64) bool {
	if nowNs < g.latest {
		nowNs = g.latest
	}
	g.latest = nowNs
	now := float64(nowNs)
	tat := max(g.tat, now)
	if tat-now > g.tau {
		return false
	}
	g.tat = tat + g.t
	return true
}
