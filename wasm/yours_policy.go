//go:build !noyours

package main

import (
	"errors"

	"ratelab/exercises/gateway"
	"ratelab/lab/policy"
)

// yoursGateway returns the gateway Impl built from the learner's
// exercises/gateway, its types converted field by field. Its code may
// panic (a stub panics with "not implemented"); the run's gateway side
// then stops and says why.
func yoursGateway() policy.Impl {
	return policy.Impl{Name: "Yours", New: func(cfg policy.Config, nowNs uint64) (policy.Gateway, error) {
		g, err := gateway.New(yoursGatewayConfig(cfg), nowNs)
		if err != nil {
			return nil, err
		}
		if g == nil {
			return nil, errors.New("New returned no gateway and no error")
		}
		return yoursGatewayAdapter{g}, nil
	}}
}

func yoursGatewayBudget(b policy.Budget) gateway.Budget {
	return gateway.Budget{Capacity: b.Capacity, RatePerSec: b.RatePerSec}
}

func yoursGatewayConfig(c policy.Config) gateway.Config {
	out := gateway.Config{
		Classes:           make(map[string]gateway.Class, len(c.Classes)),
		SilenceAfterNs:    c.SilenceAfterNs,
		DisconnectAfterNs: c.DisconnectAfterNs,
	}
	for name, k := range c.Classes {
		out.Classes[name] = gateway.Class{Orders: yoursGatewayBudget(k.Orders), Cancels: yoursGatewayBudget(k.Cancels)}
	}
	return out
}

// yoursGatewayAdapter is the learner's gateway behind policy.Gateway.
type yoursGatewayAdapter struct{ g *gateway.Gateway }

func (a yoursGatewayAdapter) Open(session uint64, class string, nowNs uint64) error {
	return a.g.Open(session, class, nowNs)
}

func (a yoursGatewayAdapter) Admit(session uint64, kind policy.Kind, nowNs uint64) policy.Verdict {
	var k gateway.Kind
	switch kind {
	case policy.NewOrder:
		k = gateway.NewOrder
	case policy.Modify:
		k = gateway.Modify
	case policy.Cancel:
		k = gateway.Cancel
	default:
		k = gateway.Heartbeat
	}
	v := a.g.Admit(session, k, nowNs)
	out := policy.Verdict{Budget: v.Budget, RetryAfterNs: v.RetryAfterNs}
	switch v.Outcome {
	case gateway.Accept:
		out.Outcome = policy.Accept
	case gateway.Reject:
		out.Outcome = policy.Reject
	case gateway.Silent:
		out.Outcome = policy.Silent
	case gateway.Disconnect:
		out.Outcome = policy.Disconnect
	default: // not an outcome: the run stops the side and names the number
		out.Outcome = policy.Outcome(v.Outcome)
	}
	return out
}

func (a yoursGatewayAdapter) Reload(cfg policy.Config, nowNs uint64) error {
	return a.g.Reload(yoursGatewayConfig(cfg), nowNs)
}
