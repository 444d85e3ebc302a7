package gcra

import (
	"fmt"
	"math/bits"
)

// GCRA keeps the theoretical arrival time as an absolute 128-bit count of
// ticks, a tick being 1/ratePerSec ns: time t ns is t*ratePerSec ticks and one
// emission interval is exactly 10^9 ticks.
type GCRA struct {
	rate         uint64
	tolerance    uint64 // (burst-1)*10^9 ticks
	seen         uint64 // latest nowNs
	tatHi, tatLo uint64
}

// New returns a limiter that can grant burst calls at nowNs.
func New(ratePerSec, burst, nowNs uint64) *GCRA {
	switch {
	case ratePerSec == 0 || ratePerSec > 1e9:
		panic(fmt.Sprintf("gcra: ratePerSec %d is out of range [1, 1e9]", ratePerSec))
	case burst == 0 || burst > 1e6:
		panic(fmt.Sprintf("gcra: burst %d is out of range [1, 1e6]", burst))
	}
	return &GCRA{rate: ratePerSec, tolerance: (burst - 1) * 1e9, seen: nowNs}
}

// TryAcquire reports whether a call at nowNs conforms, and counts it if so.
func (g *GCRA) TryAcquire(nowNs uint64) bool {
	if nowNs < g.seen {
		nowNs = g.seen
	}
	nh, nl := bits.Mul64(nowNs, g.rate)
	th, tl := g.tatHi, g.tatLo
	if th < nh || (th == nh && tl < nl) {
		th, tl = nh, nl // the schedule is behind: start it from now
	}
	dl, borrow := bits.Sub64(tl, nl, 0)
	dh, _ := bits.Sub64(th, nh, borrow)
	if dh != 0 || dl > g.tolerance {
		return false
	}
	var carry uint64
	g.tatLo, carry = bits.Add64(tl, 1e9, 0)
	g.tatHi = th + carry
	g.seen = nowNs
	return true
}
