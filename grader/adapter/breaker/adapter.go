// Package breaker adapts the breaker exercise to the grading child: see package
// ratelab/grader/adapter.
package breaker

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/breaker"
	impl "ratelab/solutions/breaker"
)

// name is the name the child serves the exercise by.
const name = "breaker"

func init() {
	harness.Register(name, suite.API(
		func(cfg suite.Config, nowNs uint64) (suite.Breaker, error) {
			b, err := impl.New(impl.Config{FailureThreshold: cfg.FailureThreshold, OpenNs: cfg.OpenNs, HalfOpenProbes: cfg.HalfOpenProbes}, nowNs)
			if b == nil {
				return nil, err
			}
			return breakerAdapter{b}, err
		},
	))
}

type breakerAdapter struct{ b *impl.Breaker }

func (a breakerAdapter) Allow(nowNs uint64) (uint64, bool) { return a.b.Allow(nowNs) }
func (a breakerAdapter) Done(ticket uint64, success bool, nowNs uint64) {
	a.b.Done(ticket, success, nowNs)
}
func (a breakerAdapter) State(nowNs uint64) suite.State { return suite.State(a.b.State(nowNs)) }
