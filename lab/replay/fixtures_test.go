package replay

import (
	fixgateway "ratelab/grader/testdata/fixtures/gateway/heartbeat-takes-token"
	"ratelab/lab/policy"
)

// fixtureGateway is the heartbeat-takes-token fixture (a heartbeat takes
// an order token) as Yours, its types converted as wasm/yours_policy.go
// does.
func fixtureGateway() policy.Impl {
	return policy.Impl{Name: "Yours", New: func(cfg policy.Config, now uint64) (policy.Gateway, error) {
		g, err := fixgateway.New(fixGatewayConfig(cfg), now)
		if err != nil {
			return nil, err
		}
		return fixGateway{g}, nil
	}}
}

func fixGatewayConfig(cfg policy.Config) fixgateway.Config {
	c := fixgateway.Config{Classes: map[string]fixgateway.Class{}, SilenceAfterNs: cfg.SilenceAfterNs, DisconnectAfterNs: cfg.DisconnectAfterNs}
	for n, k := range cfg.Classes {
		c.Classes[n] = fixgateway.Class{
			Orders:  fixgateway.Budget{Capacity: k.Orders.Capacity, RatePerSec: k.Orders.RatePerSec},
			Cancels: fixgateway.Budget{Capacity: k.Cancels.Capacity, RatePerSec: k.Cancels.RatePerSec},
		}
	}
	return c
}

type fixGateway struct{ g *fixgateway.Gateway }

func (f fixGateway) Open(s uint64, class string, now uint64) error { return f.g.Open(s, class, now) }
func (f fixGateway) Admit(s uint64, k policy.Kind, now uint64) policy.Verdict {
	v := f.g.Admit(s, fixgateway.Kind(k), now)
	return policy.Verdict{Outcome: policy.Outcome(v.Outcome), Budget: v.Budget, RetryAfterNs: v.RetryAfterNs}
}
func (f fixGateway) Reload(cfg policy.Config, now uint64) error {
	return f.g.Reload(fixGatewayConfig(cfg), now)
}
