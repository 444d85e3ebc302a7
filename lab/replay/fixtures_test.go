package replay

import (
	fixbreaker "ratelab/grader/testdata/fixtures/breaker/no-generation"
	fixgateway "ratelab/grader/testdata/fixtures/gateway/heartbeat-takes-token"
	fixthrottle "ratelab/grader/testdata/fixtures/throttle/counts-refused"
	"ratelab/lab/breaker"
	"ratelab/lab/gateway"
	"ratelab/lab/throttle"
)

// fixtureGateway is the heartbeat-takes-token fixture (a heartbeat takes
// an order token) as Yours, its types converted as wasm/yours_gateway.go
// does.
func fixtureGateway() gateway.Impl {
	return gateway.Impl{Name: "Yours", New: func(cfg gateway.Config, now uint64) (gateway.Gateway, error) {
		g, err := fixgateway.New(fixGatewayConfig(cfg), now)
		if err != nil {
			return nil, err
		}
		return fixGateway{g}, nil
	}}
}

func fixGatewayConfig(cfg gateway.Config) fixgateway.Config {
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
func (f fixGateway) Admit(s uint64, k gateway.Kind, now uint64) gateway.Verdict {
	v := f.g.Admit(s, fixgateway.Kind(k), now)
	return gateway.Verdict{Outcome: gateway.Outcome(v.Outcome), Budget: v.Budget, RetryAfterNs: v.RetryAfterNs}
}
func (f fixGateway) Reload(cfg gateway.Config, now uint64) error {
	return f.g.Reload(fixGatewayConfig(cfg), now)
}

// fixtureThrottle is the counts-refused fixture (a refused write counts
// in the address's window) as Yours, converted as wasm/yours_throttle.go
// does.
func fixtureThrottle() throttle.Impl {
	return throttle.Impl{
		Name: "Yours",
		New: func(cfg throttle.Config, now uint64) (throttle.Gate, error) {
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

func (f fixGate) SetState(s throttle.State, now uint64) { f.g.SetState(fixthrottle.State(s), now) }
func (f fixGate) SetIssuerLimit(a uint64, rl throttle.RateLimit) error {
	return f.g.SetIssuerLimit(a, fixthrottle.RateLimit{MaxCalls: rl.MaxCalls, WindowNs: rl.WindowNs})
}
func (f fixGate) ClearIssuerLimit(a uint64)        { f.g.ClearIssuerLimit(a) }
func (f fixGate) SetWhitelisted(a uint64, on bool) { f.g.SetWhitelisted(a, on) }
func (f fixGate) Write(a, now uint64) error        { return f.g.Write(a, now) }
func (f fixGate) AdjustCongestion(now uint64) throttle.Level {
	return throttle.Level(f.g.AdjustCongestion(now))
}
func (f fixGate) Status(now uint64) throttle.Status {
	s := f.g.Status(now)
	c := s.Congestion
	return throttle.Status{
		State: throttle.State(s.State), RecoverAtNs: s.RecoverAtNs, DegradedWriteLimit: s.DegradedWriteLimit, DegradedWrites: s.DegradedWrites,
		MaxCalls: s.MaxCalls, WindowNs: s.WindowNs, Level: throttle.Level(s.Level),
		Congestion: throttle.Congestion{WindowNs: c.WindowNs, LowBelow: c.LowBelow, HighAbove: c.HighAbove, ReduceBps: c.ReduceBps, IncreaseBps: c.IncreaseBps, MinMaxCalls: c.MinMaxCalls, MaxMaxCalls: c.MaxMaxCalls},
	}
}

// fixtureBreaker is the no-generation fixture (a late report from an
// earlier state counts) as Yours.
func fixtureBreaker() breaker.Impl {
	return breaker.Impl{Name: "Yours", New: func(cfg breaker.Config, now uint64) (breaker.Breaker, error) {
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
func (f fixBreaker) State(now uint64) breaker.State          { return breaker.State(f.b.State(now)) }
