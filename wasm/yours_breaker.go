//go:build !noyours

package main

import (
	"errors"

	"ratelab/exercises/breaker"
	"ratelab/lab/circuit"
)

// yoursBreaker returns the breaker Impl built from the learner's
// exercises/breaker. Its code may panic (a stub panics with "not
// implemented"); the run's breaker side then stops and says why.
func yoursBreaker() circuit.Impl {
	return circuit.Impl{Name: "Yours", New: func(cfg circuit.Config, nowNs uint64) (circuit.Breaker, error) {
		b, err := breaker.New(breaker.Config{FailureThreshold: cfg.FailureThreshold, OpenNs: cfg.OpenNs, HalfOpenProbes: cfg.HalfOpenProbes}, nowNs)
		if err != nil {
			return nil, err
		}
		if b == nil {
			return nil, errors.New("New returned no breaker and no error")
		}
		return yoursBreakerAdapter{b}, nil
	}}
}

// yoursBreakerAdapter is the learner's breaker behind circuit.Breaker. A
// State beyond HalfOpen passes through unchanged: the run stops and names
// it.
type yoursBreakerAdapter struct{ b *breaker.Breaker }

func (a yoursBreakerAdapter) Allow(nowNs uint64) (uint64, bool) { return a.b.Allow(nowNs) }

func (a yoursBreakerAdapter) Done(ticket uint64, success bool, nowNs uint64) {
	a.b.Done(ticket, success, nowNs)
}

func (a yoursBreakerAdapter) State(nowNs uint64) circuit.State {
	return circuit.State(a.b.State(nowNs))
}
