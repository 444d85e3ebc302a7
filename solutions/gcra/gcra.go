package gcra

import (
	"math"
	"strconv"
)

// ticksPerInterval is the emission interval in ticks. A tick is 1/ratePerSec
// of a nanosecond, so one interval, 10^9/ratePerSec ns, is exactly 10^9 ticks
// whatever the rate. In whole nanoseconds it would have to be rounded
// whenever ratePerSec does not divide 10^9 (at 3 per second, 333_333_333 ns
// is a little too short), and the limiter would drift from the token bucket.
const ticksPerInterval = 1_000_000_000

// GCRA limits calls to ratePerSec per second with bursts of up to burst calls,
// against a caller-supplied clock in nanoseconds.
//
// It stores the theoretical arrival time relative to the latest time seen,
// in ticks (see ticksPerInterval), as ahead = max(TAT-latest, 0). Relative,
// because an absolute TAT can pass MaxUint64 when the clock is near it; in
// ticks, because only then is every emission interval a whole number. ahead
// never exceeds burst*10^9 ticks, at most 10^15, so it fits 64 bits.
//
// The zero value is not a limiter (its rate is 0, which New refuses): use
// New. A GCRA is not safe for concurrent use: callers that share one must
// serialise access.
type GCRA struct {
	rate     uint64 // ticks per nanosecond, which is ratePerSec
	tau      uint64 // burst tolerance: (burst-1)*10^9 ticks
	forgetNs uint64 // idle time after which any schedule is forgotten
	ahead    uint64 // TAT - latestNs in ticks, clamped at 0
	latestNs uint64 // latest time seen; never moves back
}

// New returns a limiter of ratePerSec calls per second with bursts of up to
// burst calls, full (it grants burst calls at once), with nowNs as the latest
// time seen. It panics unless 1 <= ratePerSec <= 10^9 and 1 <= burst <= 10^6.
// Any uint64 nowNs is accepted.
func New(ratePerSec, burst, nowNs uint64) *GCRA {
	if ratePerSec < 1 || ratePerSec > 1_000_000_000 {
		panic("gcra: ratePerSec must be in [1, 1e9], got " + strconv.FormatUint(ratePerSec, 10))
	}
	if burst < 1 || burst > 1_000_000 {
		panic("gcra: burst must be in [1, 1e6], got " + strconv.FormatUint(burst, 10))
	}
	full := burst * ticksPerInterval // the most ahead can be, <= 10^15
	return &GCRA{
		rate: ratePerSec,
		tau:  full - ticksPerInterval,
		// After ceil(full/rate) ns idle, elapsed*rate >= full >= ahead:
		// the schedule is forgotten whatever it was. Below that,
		// elapsed*rate < full + rate, so the product cannot overflow.
		forgetNs: (full + ratePerSec - 1) / ratePerSec,
		latestNs: nowNs,
	}
}

// TryAcquire reports whether a call at nowNs conforms, and if it does,
// counts it. A nowNs at or before the latest time seen counts as that
// latest time.
func (g *GCRA) TryAcquire(nowNs uint64) bool {
	// A clock that steps back must not refuse what a later time granted,
	// and nowNs-latestNs must not wrap: clamp to the latest time seen.
	nowNs = max(nowNs, g.latestNs)
	elapsed := nowNs - g.latestNs
	g.latestNs = nowNs

	// Re-base the schedule on the new latest time: TAT-now is
	// ahead-elapsed*rate, and max(TAT, now) makes it at least 0.
	credit := elapsed * g.rate
	if elapsed >= g.forgetNs {
		credit = math.MaxUint64 // the product might overflow; it is enough anyway
	}
	ahead := g.ahead - min(g.ahead, credit)

	// Conforming means at most tau ahead of schedule; it then moves the
	// schedule one interval on. Both ifs compile to conditional moves.
	ok := ahead <= g.tau
	if ok {
		ahead += ticksPerInterval
	}
	g.ahead = ahead
	return ok
}
