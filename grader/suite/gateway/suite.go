package gateway

import (
	"fmt"
	"math"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	gm "ratelab/grader/model"
)

// Kind, Outcome and Verdict mirror the exercise's types, with the
// grader's names; Budget, Class and Config are the model's (grader/model),
// declared there once, field by field as the exercise's: values travel
// between the grader and the child by their exported fields (see
// grader/wire).
type Kind uint8

const (
	NewOrder Kind = iota
	Modify
	Cancel
	Heartbeat
)

type (
	Budget = gm.GatewayBudget
	Class  = gm.GatewayClass
	Config = gm.GatewayConfig
)

type Outcome uint8

const (
	Accept Outcome = iota
	Reject
	Silent
	Disconnect
)

type Verdict struct {
	Outcome      Outcome
	Budget       string
	RetryAfterNs uint64
}

// Gateway is the gateway API every implementation offers.
type Gateway interface {
	Open(session uint64, class string, nowNs uint64) error
	Admit(session uint64, kind Kind, nowNs uint64) Verdict
	Reload(cfg Config, nowNs uint64) error
}

// Impl is an implementation's package functions, adapted to the mirrors.
type Impl struct {
	New      func(cfg Config, nowNs uint64) (Gateway, error)
	Validate func(cfg Config) error
}

var api = check.API[Impl]{Remote: Remote, NotStarted: notStarted, Ref: reference, Loop: loop, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

func notStarted(impl Impl) bool {
	return check.Untouched(func() Gateway {
		g, _ := impl.New(Config{Classes: map[string]Class{"regular": {Orders: Budget{Capacity: 1, RatePerSec: 1}}}}, 0)
		return g
	}, func(g Gateway) { g.Open(1, "regular", 0) }, func(g Gateway) { g.Admit(1, NewOrder, 0) }, func(g Gateway) { g.Reload(Config{}, 0) }) &&
		check.Stubbed(func() { impl.Validate(Config{}) })
}

// Checks is the gateway's suite. Validate is judged on configs with one
// problem each; the properties run sessions through Admit, which has
// budgetNs (100 ns) in the benchmark.
var Checks = check.Parts[Impl, domain, setup, op]{
	Exercise: "gateway", Prose: prose, API: api, BudgetNs: budgetNs,
	Iteration: iteration,
	Mistakes:  mistakes, Replay: replay, Traps: traps,
	Domains: check.ByName(cancelDomain, heartbeatDomain, retryDomain, escalationDomain, reconnectDomain, reloadDomain, backwardDomain, overflowDomain, exactDomain), Property: domain.property,
	Fixed: map[string]func(Impl) check.Outcome{"config-validation": validation},
}

// validationCases are configs with one problem each (the class names are
// not words a message would use by chance), and valid ones.
func validationCases() []Config {
	one := func(k Class) Config {
		return Config{Classes: map[string]Class{"market-maker": {Orders: Budget{Capacity: 100, RatePerSec: 1000}}, "retail-7": k}}
	}
	ok := Budget{Capacity: 10, RatePerSec: 100}
	return []Config{
		one(Class{Orders: ok}),
		one(Class{Orders: ok, Cancels: Budget{Capacity: 10, RatePerSec: 100}}),
		{Classes: map[string]Class{"retail-7": {Orders: Budget{Capacity: math.MaxUint64, RatePerSec: math.MaxUint64}}}, SilenceAfterNs: 1, DisconnectAfterNs: 2},
		{Classes: map[string]Class{"retail-7": {Orders: ok}}, SilenceAfterNs: 5},
		{Classes: map[string]Class{"retail-7": {Orders: ok}}, DisconnectAfterNs: 5},
		{},
		{Classes: map[string]Class{}},
		one(Class{Orders: Budget{Capacity: 0, RatePerSec: 100}}),
		one(Class{Orders: Budget{Capacity: 10, RatePerSec: 0}}),
		one(Class{Orders: ok, Cancels: Budget{Capacity: 10, RatePerSec: 0}}),
		one(Class{Orders: ok, Cancels: Budget{Capacity: 9, RatePerSec: 100}}),
		one(Class{Orders: ok, Cancels: Budget{Capacity: 1000, RatePerSec: 99}}),
		{Classes: map[string]Class{"retail-7": {Orders: ok}}, SilenceAfterNs: 5, DisconnectAfterNs: 5},
		{Classes: map[string]Class{"retail-7": {Orders: ok}}, SilenceAfterNs: 6, DisconnectAfterNs: 5},
	}
}

// names reports whether msg names p: the class's name as written, and the
// field by the words of its name (lower case, any punctuation).
func names(msg string, p problem) bool {
	if p.Class != "" && !strings.Contains(msg, p.Class) {
		return false
	}
	low := strings.ToLower(msg)
	words := map[string][]string{
		"Classes":            {"class"},
		"Orders.Capacity":    {"order", "capacity"},
		"Orders.RatePerSec":  {"order", "rate"},
		"Cancels.Capacity":   {"cancel", "capacity"},
		"Cancels.RatePerSec": {"cancel", "rate"},
		"SilenceAfterNs":     {"silence"},
	}[p.Field]
	for _, w := range words {
		if !strings.Contains(low, w) {
			return p.Field == "SilenceAfterNs" && strings.Contains(low, "disconnect")
		}
	}
	return true
}

// validation is the config-validation check: Validate, then New, on each
// case; an invalid config's error must name its problem's class and
// field, a valid one must give no error.
func validation(impl Impl) check.Outcome {
	t := check.Trace{Setup: "// each step is a call on its own"}
	for _, cfg := range validationCases() {
		ps := problems(cfg)
		want := "nil"
		if len(ps) > 0 {
			want = "an error naming " + ps[0].String()
		}
		for _, fn := range []string{"Validate", "New"} {
			err, p := check.Call(func() error {
				if fn == "New" {
					_, err := impl.New(cfg, 0)
					return err
				}
				return impl.Validate(cfg)
			})
			got := "nil"
			switch {
			case err != nil && len(ps) > 0 && names(err.Error(), ps[0]):
				got = want
			case err != nil:
				got, _ = check.ErrString(err, false)
			}
			call := fmt.Sprintf("%s(%s)", fn, configString(cfg))
			if fn == "New" {
				call = fmt.Sprintf("New(%s, nowNs=0)", configString(cfg))
			}
			if !t.Step(call, got, want, p) {
				return check.Fail(t, "Validate (and New, which calls it) must refuse exactly the configs the contract refuses, with an error whose text holds the class's name (for a class's problem) and the field's name, so that operations know what to fix.")
			}
		}
	}
	return check.Pass()
}
