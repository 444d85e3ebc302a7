package gcra

// GCRA is your limiter. Its fields are yours to choose: what must it
// remember between two calls, and in what units of time?
type GCRA struct {
	// Your fields here.
}

// New returns a limiter of ratePerSec calls per second with bursts of up to
// burst calls, able to grant burst calls at nowNs. It panics, naming the
// argument, unless 1 <= ratePerSec <= 10^9 and 1 <= burst <= 10^6.
func New(ratePerSec, burst, nowNs uint64) *GCRA {
	panic("gcra: New is not implemented yet")
}

// TryAcquire reports whether a call at nowNs conforms to the schedule, and
// if it does, counts it. A nowNs earlier than the latest time seen counts as
// that latest time.
func (g *GCRA) TryAcquire(nowNs uint64) bool {
	panic("gcra: TryAcquire is not implemented yet")
}
