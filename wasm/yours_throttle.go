//go:build !noyours

package main

import (
	"errors"

	"ratelab/exercises/throttle"
	"ratelab/lab/operator"
)

// yoursThrottle returns the throttle Impl built from the learner's
// exercises/throttle, its types converted field by field and its three
// errors given for the run to match refusals against. Its code may panic
// (a stub panics with "not implemented"); the run then stops and says
// why.
func yoursThrottle() operator.Impl {
	return operator.Impl{
		Name: "Yours",
		New: func(cfg operator.Config, nowNs uint64) (operator.Gate, error) {
			c := cfg.Congestion
			g, err := throttle.New(throttle.Config{
				Breaker: throttle.BreakerConfig{TTLNs: cfg.Breaker.TTLNs, DegradedWriteLimit: cfg.Breaker.DegradedWriteLimit, AutoRecover: cfg.Breaker.AutoRecover},
				Rate:    throttle.RateLimit{MaxCalls: cfg.Rate.MaxCalls, WindowNs: cfg.Rate.WindowNs},
				Congestion: throttle.CongestionConfig{
					WindowNs: c.WindowNs, LowBelow: c.LowBelow, HighAbove: c.HighAbove,
					ReduceBps: c.ReduceBps, IncreaseBps: c.IncreaseBps, MinMaxCalls: c.MinMaxCalls, MaxMaxCalls: c.MaxMaxCalls,
				},
			}, nowNs)
			if err != nil {
				return nil, err
			}
			if g == nil {
				return nil, errors.New("New returned no gate and no error")
			}
			return yoursGate{g}, nil
		},
		ErrPaused: throttle.ErrPaused, ErrDegradedLimit: throttle.ErrDegradedLimit, ErrRateLimited: throttle.ErrRateLimited,
	}
}

// yoursGate is the learner's gate behind operator.Gate.
type yoursGate struct{ g *throttle.Gate }

func (y yoursGate) SetState(s operator.State, nowNs uint64) { y.g.SetState(throttle.State(s), nowNs) }

func (y yoursGate) SetIssuerLimit(addr uint64, rl operator.RateLimit) error {
	return y.g.SetIssuerLimit(addr, throttle.RateLimit{MaxCalls: rl.MaxCalls, WindowNs: rl.WindowNs})
}

func (y yoursGate) SetWhitelisted(addr uint64, on bool) { y.g.SetWhitelisted(addr, on) }

func (y yoursGate) Write(addr, nowNs uint64) error { return y.g.Write(addr, nowNs) }

func (y yoursGate) AdjustCongestion(nowNs uint64) operator.Level {
	return operator.Level(y.g.AdjustCongestion(nowNs))
}

func (y yoursGate) Status(nowNs uint64) operator.Status {
	s := y.g.Status(nowNs)
	c := s.Congestion
	return operator.Status{
		State: operator.State(s.State), RecoverAtNs: s.RecoverAtNs,
		DegradedWriteLimit: s.DegradedWriteLimit, DegradedWrites: s.DegradedWrites,
		MaxCalls: s.MaxCalls, WindowNs: s.WindowNs, Level: operator.Level(s.Level),
		Congestion: operator.Congestion{
			WindowNs: c.WindowNs, LowBelow: c.LowBelow, HighAbove: c.HighAbove,
			ReduceBps: c.ReduceBps, IncreaseBps: c.IncreaseBps, MinMaxCalls: c.MinMaxCalls, MaxMaxCalls: c.MaxMaxCalls,
		},
	}
}
