package grader

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/report"
	brsuite "ratelab/grader/suite/breaker"
	fqsuite "ratelab/grader/suite/fairqueue"
	gwsuite "ratelab/grader/suite/gateway"
	gcrasuite "ratelab/grader/suite/gcra"
	govsuite "ratelab/grader/suite/governor"
	g2suite "ratelab/grader/suite/gradient2"
	hiersuite "ratelab/grader/suite/hierarchy"
	swsuite "ratelab/grader/suite/slidingwindow"
	thsuite "ratelab/grader/suite/throttle"
	tbsuite "ratelab/grader/suite/tokenbucket"
	"ratelab/lab/course"
)

// gradable is everything the grader knows of one exercise; its id, week
// and title come from the course catalogue (package course).
type gradable struct {
	// suite builds the exercise's checks over the implementation a Remote
	// serves; with a nil Remote it only lists them.
	suite func(check.Remote) check.Suite
	// adapter is the Go source that registers the exercise's API in the
	// grading child: typed closures over the learner's package (%[1]s, its
	// import path), registered under the name the child serves it by
	// (%[2]s, the exercise's id but for variants), so that an API that
	// differs from the contract does not compile, and the compiler says
	// where. The reference timed beside it
	// is the suite's own (its API adds it).
	adapter string
}

// registry holds every gradable exercise. It is the one place the grader
// learns of an exercise: the list of gradable ids, the plan of checks and
// the child's source all come from here.
var registry = map[string]gradable{
	"tokenbucket": {tbsuite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/tokenbucket"
)

func init() {
	harness.Register(%[2]q, suite.API(
		func(capacity, ratePerSec, nowNs uint64) suite.Bucket { return impl.New(capacity, ratePerSec, nowNs) },
	))
}
`},
	"gcra": {gcrasuite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/gcra"
)

func init() {
	harness.Register(%[2]q, suite.API(
		func(ratePerSec, burst, nowNs uint64) suite.Limiter { return impl.New(ratePerSec, burst, nowNs) },
	))
}
`},
	"slidingwindow": {swsuite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/slidingwindow"
)

func init() {
	harness.Register(%[2]q, suite.API(
		func(limit uint32, windowNs uint64, buckets int) suite.Window { return impl.New(limit, windowNs, buckets) },
	))
}
`},
	"governor": {govsuite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/governor"
)

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
	harness.Register(%[2]q, suite.API(suite.Impl{
		Decide: func(cfg suite.Config, frac, current, lastBad float64) suite.Decision {
			return governorDecision(impl.Decide(governorConfig(cfg), frac, current, lastBad))
		},
		MemoryClearStep: func(streak int, clean bool) (int, bool) { return impl.MemoryClearStep(streak, clean) },
		New:             func(cfg suite.Config) suite.Governor { return governorAdapter{impl.New(governorConfig(cfg))} },
	}))
}
`},
	"gateway": {gwsuite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/gateway"
)

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
	harness.Register(%[2]q, suite.API(suite.Impl{
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
`},
	"gradient2": {g2suite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/gradient2"
)

func init() {
	harness.Register(%[2]q, suite.API(func(c suite.Config) suite.Limit {
		return impl.New(impl.Config{
			InitialLimit: c.InitialLimit, MinLimit: c.MinLimit, MaxLimit: c.MaxLimit,
			Smoothing: c.Smoothing, RTTTolerance: c.RTTTolerance, LongWindow: c.LongWindow,
			QueueSize: c.QueueSize,
		})
	}))
}
`},
	"hierarchy": {hiersuite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/hierarchy"
)

func init() {
	harness.Register(%[2]q, suite.API(
		func(nowNs uint64) suite.Tree { return impl.New(nowNs) },
	))
}
`},
	"fairqueue": {fqsuite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/fairqueue"
)

func init() {
	harness.Register(%[2]q, suite.API(
		func(quantum uint64) suite.Queue { return impl.New(quantum) },
	))
}
`},
	"throttle": {thsuite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/throttle"
)

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
	harness.Register(%[2]q, suite.API(suite.Impl{New: throttleNew}))
}
`},
	"breaker": {brsuite.Checks.Suite, `
import (
	impl %[1]q
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/breaker"
)

func init() {
	harness.Register(%[2]q, suite.API(
		func(cfg suite.Config, nowNs uint64) (suite.Breaker, error) {
			b, err := impl.New(impl.Config{FailureThreshold: cfg.FailureThreshold, OpenNs: cfg.OpenNs, HalfOpenProbes: cfg.HalfOpenProbes}, nowNs)
			if b == nil {
				return nil, err
			}
			return breakerAdapter{b}, err
		},
	))
}

type breakerAdapter struct{ b *impl.Breaker }

func (a breakerAdapter) Allow(nowNs uint64) (uint64, bool)              { return a.b.Allow(nowNs) }
func (a breakerAdapter) Done(ticket uint64, success bool, nowNs uint64) { a.b.Done(ticket, success, nowNs) }
func (a breakerAdapter) State(nowNs uint64) suite.State                 { return suite.State(a.b.State(nowNs)) }
`},
}

const childMain = `// Code generated by the ratelab grader. DO NOT EDIT.

package main

import "ratelab/grader/harness"

func main() { harness.Main() }
`

// adapterSource returns the generated file, of package pkg, registering
// exercise id under name, graded from the package at implPath.
func adapterSource(id, name, pkg, implPath string) (string, error) {
	e, ok := registry[id]
	if !ok {
		return "", fmt.Errorf("no grader suite for exercise %q", id)
	}
	return "// Code generated by the ratelab grader. DO NOT EDIT.\n\npackage " + pkg + "\n" + fmt.Sprintf(e.adapter, implPath, name), nil
}

// Plan lists the checks of exercise id, none of them run yet.
func Plan(id string) ([]report.Check, error) {
	e, ok := registry[id]
	if !ok {
		return nil, fmt.Errorf("unknown exercise %q (the exercises are %s)", id, gradableList())
	}
	s := e.suite(nil)
	out := make([]report.Check, len(s.Checks))
	for i, c := range s.Checks {
		out[i] = c.Result(check.Outcome{Status: report.Skipped})
	}
	return out, nil
}

// Gradable returns the exercises the grader has a suite for, in course order.
func Gradable() []course.Exercise {
	var out []course.Exercise
	for _, e := range course.Exercises() {
		if _, ok := registry[e.ID]; ok {
			out = append(out, e)
		}
	}
	return out
}

func gradableList() string {
	var ids []string
	for _, e := range Gradable() {
		ids = append(ids, e.ID)
	}
	return strings.Join(ids, ", ")
}
