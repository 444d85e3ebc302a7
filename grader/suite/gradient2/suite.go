package gradient2

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
	gm "ratelab/grader/model"
)

// Config is the exercise's Config, declared once, in its model
// (grader/model).
type Config = gm.Gradient2Config

// Limit is the API every implementation offers.
type Limit interface {
	Update(rttNs uint64, inflight int) int
	Limit() int
}

// New builds a limit: gradient2.New, adapted to take the suite's Config
// (converted field by field) and return the interface.
type New func(cfg Config) Limit

var api = check.API[New]{Remote: Remote, NotStarted: notStarted, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

func notStarted(impl New) bool {
	cfg := Config{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600}
	return check.Untouched(func() Limit { return impl(cfg) }, func(l Limit) { l.Update(1000, 20) }, func(l Limit) { l.Limit() })
}

// Checks is Gradient2's suite: properties alone, every one replayed on a
// model that keeps each intermediate value, and no budget.
var Checks = check.Parts[New, domain, setup, op]{
	Exercise: "gradient2", Prose: prose, API: api,
	Mistakes: mistakes, Replay: replay,
	Domains: check.ByName(warmupDomain, decayDomain, appDomain, clampDomain, smoothingDomain, floorDomain, exactDomain), Property: domain.property,
}
