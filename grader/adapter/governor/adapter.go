// Package governor adapts the governor exercise to the grading child: see package
// ratelab/grader/adapter.
package governor

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/governor"
	impl "ratelab/solutions/governor"
)

// name is the name the child serves the exercise by.
const name = "governor"

// governorConfig and governorDecision convert between the exercise's types
// and the suite's mirrors, field by field.
func governorConfig(c suite.Config) impl.Config {
	return impl.Config{Floor: c.Floor, Ceiling: c.Ceiling, Start: c.Start, Low: c.Low, High: c.High}
}

func governorDecision(d impl.Decision) suite.Decision {
	return suite.Decision{Action: suite.Action(d.Action), Offer: d.Offer, LastBad: d.LastBad, Reason: d.Reason}
}

type governorAdapter struct{ g *impl.Governor }

func (a governorAdapter) Observe(cumFailures, cumResolved uint64) suite.Decision {
	return governorDecision(a.g.Observe(cumFailures, cumResolved))
}
func (a governorAdapter) Offer() float64   { return a.g.Offer() }
func (a governorAdapter) LastBad() float64 { return a.g.LastBad() }

func init() {
	harness.Register(name, suite.API(suite.Impl{
		Decide: func(cfg suite.Config, frac, current, lastBad float64) suite.Decision {
			return governorDecision(impl.Decide(governorConfig(cfg), frac, current, lastBad))
		},
		MemoryClearStep: func(streak int, clean bool) (int, bool) { return impl.MemoryClearStep(streak, clean) },
		New:             func(cfg suite.Config) suite.Governor { return governorAdapter{impl.New(governorConfig(cfg))} },
	}))
}
