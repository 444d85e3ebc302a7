// Package throttle adapts the throttle exercise to the grading child: see package
// ratelab/grader/adapter.
package throttle

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/throttle"
	impl "ratelab/solutions/throttle"
)

// name is the name the child serves the exercise by.
const name = "throttle"

// The exercise's types and the suite's mirrors, converted field by field;
// Write's error is classified here, with errors.Is against the package's
// own errors, before it travels (errors travel as their text).

func throttleConfig(c suite.Config) impl.Config {
	k := c.Congestion
	return impl.Config{
		Breaker: impl.BreakerConfig{TTLNs: c.Breaker.TTLNs, DegradedWriteLimit: c.Breaker.DegradedWriteLimit, AutoRecover: c.Breaker.AutoRecover},
		Rate:    impl.RateLimit{MaxCalls: c.Rate.MaxCalls, WindowNs: c.Rate.WindowNs},
		Congestion: impl.CongestionConfig{
			WindowNs: k.WindowNs, LowBelow: k.LowBelow, HighAbove: k.HighAbove,
			ReduceBps: k.ReduceBps, IncreaseBps: k.IncreaseBps, MinMaxCalls: k.MinMaxCalls, MaxMaxCalls: k.MaxMaxCalls,
		},
	}
}

type throttleAdapter struct{ g *impl.Gate }

func (a throttleAdapter) SetState(s suite.State, nowNs uint64) { a.g.SetState(impl.State(s), nowNs) }
func (a throttleAdapter) SetIssuerLimit(addr uint64, rl suite.RateLimit) error {
	return a.g.SetIssuerLimit(addr, impl.RateLimit{MaxCalls: rl.MaxCalls, WindowNs: rl.WindowNs})
}
func (a throttleAdapter) ClearIssuerLimit(addr uint64)        { a.g.ClearIssuerLimit(addr) }
func (a throttleAdapter) SetWhitelisted(addr uint64, on bool) { a.g.SetWhitelisted(addr, on) }
func (a throttleAdapter) Write(addr, nowNs uint64) suite.WriteResult {
	return suite.Classify(a.g.Write(addr, nowNs), impl.ErrPaused, impl.ErrDegradedLimit, impl.ErrRateLimited)
}
func (a throttleAdapter) AdjustCongestion(nowNs uint64) suite.Level {
	return suite.Level(a.g.AdjustCongestion(nowNs))
}
func (a throttleAdapter) Status(nowNs uint64) suite.Status {
	s := a.g.Status(nowNs)
	k := s.Congestion
	return suite.Status{
		State: suite.State(s.State), RecoverAtNs: s.RecoverAtNs,
		DegradedWriteLimit: s.DegradedWriteLimit, DegradedWrites: s.DegradedWrites,
		MaxCalls: s.MaxCalls, WindowNs: s.WindowNs, Level: suite.Level(s.Level),
		Congestion: suite.CongestionConfig{
			WindowNs: k.WindowNs, LowBelow: k.LowBelow, HighAbove: k.HighAbove,
			ReduceBps: k.ReduceBps, IncreaseBps: k.IncreaseBps, MinMaxCalls: k.MinMaxCalls, MaxMaxCalls: k.MaxMaxCalls,
		},
	}
}

func throttleNew(cfg suite.Config, nowNs uint64) (suite.Gate, error) {
	g, err := impl.New(throttleConfig(cfg), nowNs)
	if g == nil {
		return nil, err
	}
	return throttleAdapter{g}, err
}

func init() {
	harness.Register(name, suite.API(suite.Impl{New: throttleNew}))
}
