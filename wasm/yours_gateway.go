//go:build !noyours && (!oneweek || week3)

package main

import (
	"errors"

	learner "ratelab/exercises/gateway"
	"ratelab/lab/gateway"
)

// yoursGateway returns the gateway Impl built from the learner's
// exercises/gateway, its types converted field by field. Its code may
// panic (a stub panics with "not implemented"); the run's gateway side
// then stops and says why.
func yoursGateway() gateway.Impl {
	return gateway.Impl{Name: "Yours", New: func(cfg gateway.Config, nowNs uint64) (gateway.Gateway, error) {
		g, err := learner.New(yoursGatewayConfig(cfg), nowNs)
		if err != nil {
			return nil, err
		}
		if g == nil {
			return nil, errors.New("New returned no gateway and no error")
		}
		return yoursGatewayAdapter{g}, nil
	}}
}

func yoursGatewayBudget(b gateway.Budget) learner.Budget {
	return learner.Budget{Capacity: b.Capacity, RatePerSec: b.RatePerSec}
}

func yoursGatewayConfig(c gateway.Config) learner.Config {
	out := learner.Config{
		Classes:           make(map[string]learner.Class, len(c.Classes)),
		SilenceAfterNs:    c.SilenceAfterNs,
		DisconnectAfterNs: c.DisconnectAfterNs,
	}
	for name, k := range c.Classes {
		out.Classes[name] = learner.Class{Orders: yoursGatewayBudget(k.Orders), Cancels: yoursGatewayBudget(k.Cancels)}
	}
	return out
}

// yoursGatewayAdapter is the learner's gateway behind gateway.Gateway.
type yoursGatewayAdapter struct{ g *learner.Gateway }

func (a yoursGatewayAdapter) Open(session uint64, class string, nowNs uint64) error {
	return a.g.Open(session, class, nowNs)
}

func (a yoursGatewayAdapter) Admit(session uint64, kind gateway.Kind, nowNs uint64) gateway.Verdict {
	var k learner.Kind
	switch kind {
	case gateway.NewOrder:
		k = learner.NewOrder
	case gateway.Modify:
		k = learner.Modify
	case gateway.Cancel:
		k = learner.Cancel
	default:
		k = learner.Heartbeat
	}
	v := a.g.Admit(session, k, nowNs)
	out := gateway.Verdict{Budget: v.Budget, RetryAfterNs: v.RetryAfterNs}
	switch v.Outcome {
	case learner.Accept:
		out.Outcome = gateway.Accept
	case learner.Reject:
		out.Outcome = gateway.Reject
	case learner.Silent:
		out.Outcome = gateway.Silent
	case learner.Disconnect:
		out.Outcome = gateway.Disconnect
	default: // not an outcome: the run stops the side and names the number
		out.Outcome = gateway.Outcome(v.Outcome)
	}
	return out
}

func (a yoursGatewayAdapter) Reload(cfg gateway.Config, nowNs uint64) error {
	return a.g.Reload(yoursGatewayConfig(cfg), nowNs)
}
