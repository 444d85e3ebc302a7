//go:build !noyours && (!oneweek || week5)

package main

import (
	"errors"

	learner "ratelab/exercises/breaker"
	"ratelab/lab/breaker"
)

// yoursBreaker returns the breaker Impl built from the learner's
// exercises/breaker. Its code may panic (a stub panics with "not
// implemented"); the run's breaker side then stops and says why.
func yoursBreaker() breaker.Impl {
	return breaker.Impl{Name: "Yours", New: func(cfg breaker.Config, nowNs uint64) (breaker.Breaker, error) {
		b, err := learner.New(learner.Config{FailureThreshold: cfg.FailureThreshold, OpenNs: cfg.OpenNs, HalfOpenProbes: cfg.HalfOpenProbes}, nowNs)
		if err != nil {
			return nil, err
		}
		if b == nil {
			return nil, errors.New("New returned no breaker and no error")
		}
		return yoursBreakerAdapter{b}, nil
	}}
}

// yoursBreakerAdapter is the learner's breaker behind breaker.Breaker. A
// State beyond HalfOpen passes through unchanged: the run stops and names
// it.
type yoursBreakerAdapter struct{ b *learner.Breaker }

func (a yoursBreakerAdapter) Allow(nowNs uint64) (uint64, bool) { return a.b.Allow(nowNs) }

func (a yoursBreakerAdapter) Done(ticket uint64, success bool, nowNs uint64) {
	a.b.Done(ticket, success, nowNs)
}

func (a yoursBreakerAdapter) State(nowNs uint64) breaker.State {
	return breaker.State(a.b.State(nowNs))
}
