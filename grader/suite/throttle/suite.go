package throttle

import (
	"errors"
	"fmt"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	gm "ratelab/grader/model"
)

// State and Level mirror the exercise's types, with the grader's names;
// BreakerConfig, RateLimit, CongestionConfig, Config and Status are the
// model's (grader/model), declared there once, field by field as the
// exercise's: values travel between the grader and the child by their
// exported fields (see grader/wire).
type State uint8

const (
	Normal State = iota
	Degraded
	Paused
)

type Level uint8

const (
	Low Level = iota
	NormalLoad
	High
)

type (
	BreakerConfig    = gm.ThrottleBreakerConfig
	RateLimit        = gm.ThrottleRate
	CongestionConfig = gm.ThrottleCongestion
	Config           = gm.ThrottleConfig
	Status           = gm.ThrottleStatus[State, Level]
)

// Refusal is Write's error as the child classifies it (see Classify).
type Refusal uint8

const (
	Accepted        Refusal = iota // nil
	ByPause                        // errors.Is(err, ErrPaused)
	ByDegradedLimit                // errors.Is(err, ErrDegradedLimit)
	ByRateLimit                    // errors.Is(err, ErrRateLimited)
	ByOther                        // any other error, or one that is several of them: Text says
)

// WriteResult is Write's answer as it travels: its error classified, and
// the error's text when it is none of the three (or several).
type WriteResult struct {
	Refusal Refusal
	Text    string
}

// Classify is called in the grading child, by the exercise's adapter, on
// Write's error and the package's own three errors: errors.Is needs the
// identity of the package's values, which cannot travel.
func Classify(err, paused, degraded, rated error) WriteResult {
	if err == nil {
		return WriteResult{Refusal: Accepted}
	}
	var match []Refusal
	for i, e := range []error{paused, degraded, rated} {
		if errors.Is(err, e) {
			match = append(match, Refusal(i+1))
		}
	}
	if len(match) == 1 {
		return WriteResult{Refusal: match[0]}
	}
	text := err.Error()
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	if len(match) > 1 {
		text = fmt.Sprintf("%s (errors.Is matches several of ErrPaused, ErrDegradedLimit, ErrRateLimited: they must be distinct)", text)
	}
	return WriteResult{Refusal: ByOther, Text: text}
}

// Gate is the gate API every implementation offers.
type Gate interface {
	SetState(s State, nowNs uint64)
	SetIssuerLimit(addr uint64, rl RateLimit) error
	ClearIssuerLimit(addr uint64)
	SetWhitelisted(addr uint64, on bool)
	Write(addr, nowNs uint64) WriteResult
	AdjustCongestion(nowNs uint64) Level
	Status(nowNs uint64) Status
}

// Impl is an implementation's package functions, adapted to the mirrors.
type Impl struct {
	New func(cfg Config, nowNs uint64) (Gate, error)
}

var api = check.API[Impl]{Remote: Remote, NotStarted: notStarted, Ref: reference, Loop: loop, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

func notStarted(impl Impl) bool {
	cfg := Config{Rate: RateLimit{MaxCalls: 1, WindowNs: 1}, Congestion: CongestionConfig{WindowNs: 1, MinMaxCalls: 1, MaxMaxCalls: 1}}
	return check.Untouched(func() Gate { g, _ := impl.New(cfg, 0); return g },
		func(g Gate) { g.Write(1, 0) }, func(g Gate) { g.Status(0) }, func(g Gate) { g.AdjustCongestion(0) }, func(g Gate) { g.SetState(Degraded, 0) })
}

// Checks is the throttle's suite (week 5): its config validation, a
// property for each rule of the gate, and a Write that fits budgetNs.
var Checks = check.Parts[Impl, domain, setup, op]{
	Exercise: "throttle", Prose: prose, API: api, BudgetNs: budgetNs,
	Iteration: iteration,
	Mistakes:  mistakes, Replay: replay, Traps: traps,
	Domains: check.ByName(recoverDomain, pauseDomain, whitelistDomain, overrideDomain, rateDomain, gateDomain, stepDomain, degradedDomain, precedenceDomain, statusDomain, backwardDomain, exactDomain), Property: domain.property,
	Fixed: map[string]func(Impl) check.Outcome{"config-validation": validation},
}
