//go:build !noyours && (!oneweek || week5)

package main

import (
	"errors"

	learner "ratelab/exercises/throttle"
	"ratelab/lab/throttle"
)

// yoursThrottle returns the throttle Impl built from the learner's
// exercises/throttle, its types converted field by field and its three
// errors given for the run to match refusals against. Its code may panic
// (a stub panics with "not implemented"); the run then stops and says
// why.
func yoursThrottle() throttle.Impl {
	return throttle.Impl{
		Name: "Yours",
		New: func(cfg throttle.Config, nowNs uint64) (throttle.Gate, error) {
			c := cfg.Congestion
			g, err := learner.New(learner.Config{
				Breaker: learner.BreakerConfig{TTLNs: cfg.Breaker.TTLNs, DegradedWriteLimit: cfg.Breaker.DegradedWriteLimit, AutoRecover: cfg.Breaker.AutoRecover},
				Rate:    learner.RateLimit{MaxCalls: cfg.Rate.MaxCalls, WindowNs: cfg.Rate.WindowNs},
				Congestion: learner.CongestionConfig{
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
		ErrPaused: learner.ErrPaused, ErrDegradedLimit: learner.ErrDegradedLimit, ErrRateLimited: learner.ErrRateLimited,
	}
}

// yoursGate is the learner's gate behind throttle.Gate.
type yoursGate struct{ g *learner.Gate }

func (y yoursGate) SetState(s throttle.State, nowNs uint64) { y.g.SetState(learner.State(s), nowNs) }

func (y yoursGate) SetIssuerLimit(addr uint64, rl throttle.RateLimit) error {
	return y.g.SetIssuerLimit(addr, learner.RateLimit{MaxCalls: rl.MaxCalls, WindowNs: rl.WindowNs})
}

func (y yoursGate) SetWhitelisted(addr uint64, on bool) { y.g.SetWhitelisted(addr, on) }

func (y yoursGate) Write(addr, nowNs uint64) error { return y.g.Write(addr, nowNs) }

func (y yoursGate) AdjustCongestion(nowNs uint64) throttle.Level {
	return throttle.Level(y.g.AdjustCongestion(nowNs))
}

func (y yoursGate) Status(nowNs uint64) throttle.Status {
	s := y.g.Status(nowNs)
	c := s.Congestion
	return throttle.Status{
		State: throttle.State(s.State), RecoverAtNs: s.RecoverAtNs,
		DegradedWriteLimit: s.DegradedWriteLimit, DegradedWrites: s.DegradedWrites,
		MaxCalls: s.MaxCalls, WindowNs: s.WindowNs, Level: throttle.Level(s.Level),
		Congestion: throttle.Congestion{
			WindowNs: c.WindowNs, LowBelow: c.LowBelow, HighAbove: c.HighAbove,
			ReduceBps: c.ReduceBps, IncreaseBps: c.IncreaseBps, MinMaxCalls: c.MinMaxCalls, MaxMaxCalls: c.MaxMaxCalls,
		},
	}
}
