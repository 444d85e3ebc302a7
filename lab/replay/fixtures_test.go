package replay

import (
	fixbreaker "ratelab/grader/testdata/fixtures/breaker/no-generation"
	fixgateway "ratelab/grader/testdata/fixtures/gateway/heartbeat-takes-token"
	fixthrottle "ratelab/grader/testdata/fixtures/throttle/counts-refused"
	"ratelab/lab/circuit"
	"ratelab/lab/operator"
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

// fixtureThrottle is the counts-refused fixture (a refused write counts
// in the address's window) as Yours, converted as wasm/yours_throttle.go
// does.
func fixtureThrottle() operator.Impl {
	return operator.Impl{
		Name: "Yours",
		New: func(cfg operator.Config, now uint64) (operator.Gate, error) {
			c := cfg.Congestion
			g, err := fixthrottle.New(fixthrottle.Config{
				Breaker: fixthrottle.BreakerConfig{TTLNs: cfg.Breaker.TTLNs, DegradedWriteLimit: cfg.Breaker.DegradedWriteLimit, AutoRecover: cfg.Breaker.AutoRecover},
				Rate:    fixthrottle.RateLimit{MaxCalls: cfg.Rate.MaxCalls, WindowNs: cfg.Rate.WindowNs},
				Congestion: fixthrottle.CongestionConfig{
					WindowNs: c.WindowNs, LowBelow: c.LowBelow, HighAbove: c.HighAbove,
					ReduceBps: c.ReduceBps, IncreaseBps: c.IncreaseBps, MinMaxCalls: c.MinMaxCalls, MaxMaxCalls: c.MaxMaxCalls,
				},
			}, now)
			if err != nil {
				return nil, err
			}
			return fixGate{g}, nil
		},
		ErrPaused: fixthrottle.ErrPaused, ErrDegradedLimit: fixthrottle.ErrDegradedLimit, ErrRateLimited: fixthrottle.ErrRateLimited,
	}
}

type fixGate struct{ g *fixthrottle.Gate }

func (f fixGate) SetState(s operator.State, now uint64) { f.g.SetState(fixthrottle.State(s), now) }
func (f fixGate) SetIssuerLimit(a uint64, rl operator.RateLimit) error {
	return f.g.SetIssuerLimit(a, fixthrottle.RateLimit{MaxCalls: rl.MaxCalls, WindowNs: rl.WindowNs})
}
func (f fixGate) ClearIssuerLimit(a uint64)        { f.g.ClearIssuerLimit(a) }
func (f fixGate) SetWhitelisted(a uint64, on bool) { f.g.SetWhitelisted(a, on) }
func (f fixGate) Write(a, now uint64) error        { return f.g.Write(a, now) }
func (f fixGate) AdjustCongestion(now uint64) operator.Level {
	return operator.Level(f.g.AdjustCongestion(now))
}
func (f fixGate) Status(now uint64) operator.Status {
	s := f.g.Status(now)
	c := s.Congestion
	return operator.Status{
		State: operator.State(s.State), RecoverAtNs: s.RecoverAtNs, DegradedWriteLimit: s.DegradedWriteLimit, DegradedWrites: s.DegradedWrites,
		MaxCalls: s.MaxCalls, WindowNs: s.WindowNs, Level: operator.Level(s.Level),
		Congestion: operator.Congestion{WindowNs: c.WindowNs, LowBelow: c.LowBelow, HighAbove: c.HighAbove, ReduceBps: c.ReduceBps, IncreaseBps: c.IncreaseBps, MinMaxCalls: c.MinMaxCalls, MaxMaxCalls: c.MaxMaxCalls},
	}
}

// fixtureBreaker is the no-generation fixture (a late report from an
// earlier state counts) as Yours.
func fixtureBreaker() circuit.Impl {
	return circuit.Impl{Name: "Yours", New: func(cfg circuit.Config, now uint64) (circuit.Breaker, error) {
		b, err := fixbreaker.New(fixbreaker.Config{FailureThreshold: cfg.FailureThreshold, OpenNs: cfg.OpenNs, HalfOpenProbes: cfg.HalfOpenProbes}, now)
		if err != nil {
			return nil, err
		}
		return fixBreaker{b}, nil
	}}
}

type fixBreaker struct{ b *fixbreaker.Breaker }

func (f fixBreaker) Allow(now uint64) (uint64, bool)         { return f.b.Allow(now) }
func (f fixBreaker) Done(t uint64, success bool, now uint64) { f.b.Done(t, success, now) }
func (f fixBreaker) State(now uint64) circuit.State          { return circuit.State(f.b.State(now)) }
