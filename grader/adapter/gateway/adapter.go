// Package gateway adapts the gateway exercise to the grading child: see package
// ratelab/grader/adapter.
package gateway

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/gateway"
	impl "ratelab/solutions/gateway"
)

// name is the name the child serves the exercise by.
const name = "gateway"

// gatewayConfig converts the suite's Config to the package's, field by
// field.
func gatewayConfig(c suite.Config) impl.Config {
	var classes map[string]impl.Class
	if c.Classes != nil {
		classes = make(map[string]impl.Class, len(c.Classes))
	}
	for n, k := range c.Classes {
		classes[n] = impl.Class{
			Orders:  impl.Budget{Capacity: k.Orders.Capacity, RatePerSec: k.Orders.RatePerSec},
			Cancels: impl.Budget{Capacity: k.Cancels.Capacity, RatePerSec: k.Cancels.RatePerSec},
		}
	}
	return impl.Config{Classes: classes, SilenceAfterNs: c.SilenceAfterNs, DisconnectAfterNs: c.DisconnectAfterNs}
}

type gatewayAdapter struct{ g *impl.Gateway }

func (a gatewayAdapter) Open(session uint64, class string, nowNs uint64) error {
	return a.g.Open(session, class, nowNs)
}
func (a gatewayAdapter) Admit(session uint64, kind suite.Kind, nowNs uint64) suite.Verdict {
	v := a.g.Admit(session, impl.Kind(kind), nowNs)
	return suite.Verdict{Outcome: suite.Outcome(v.Outcome), Budget: v.Budget, RetryAfterNs: v.RetryAfterNs}
}
func (a gatewayAdapter) Reload(cfg suite.Config, nowNs uint64) error {
	return a.g.Reload(gatewayConfig(cfg), nowNs)
}

func init() {
	harness.Register(name, suite.API(suite.Impl{
		New: func(cfg suite.Config, nowNs uint64) (suite.Gateway, error) {
			g, err := impl.New(gatewayConfig(cfg), nowNs)
			if g == nil {
				return nil, err
			}
			return gatewayAdapter{g}, err
		},
		Validate: func(cfg suite.Config) error { return gatewayConfig(cfg).Validate() },
	}))
}
