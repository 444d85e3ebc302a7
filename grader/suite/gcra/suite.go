package gcra

import (
	"math"

	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// Limiter is the GCRA API every implementation offers.
type Limiter interface {
	TryAcquire(nowNs uint64) bool
}

// New builds a limiter: gcra.New, adapted to return the interface.
type New func(ratePerSec, burst, nowNs uint64) Limiter

var api = check.API[New]{Remote: Remote, NotStarted: notStarted, Ref: reference, Loop: loop, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

func notStarted(impl New) bool {
	return check.Untouched(func() Limiter { return impl(1, 1, 0) }, func(g Limiter) { g.TryAcquire(0) })
}

// Checks is the GCRA's suite. Each property holds the limiter to a token
// bucket of capacity burst; New's arguments are tried at both ends of
// their range.
var Checks = check.Parts[New, domain, setup, op]{
	Exercise: "gcra", Prose: prose, API: api, BudgetNs: check.LimiterBudgetNs,
	Iteration: iteration,
	Mistakes:  mistakes, Replay: replay, Traps: traps,
	Domains: check.ByName(exactDomain, roundingDomain, backwardDomain, overflowDomain), Property: domain.property,
	Fixed: map[string]func(New) check.Outcome{"new-arguments": newArguments},
}

// argCases call New with arguments at both ends of the range and just
// outside it.
var argCases = []check.ArgCase[setup]{
	{Args: setup{Rate: 1, Burst: 1, Start: 0}},
	{Args: setup{Rate: second, Burst: 1_000_000, Start: math.MaxUint64}},
	{Args: setup{Rate: 0, Burst: 10, Start: 0}, Bad: "ratePerSec"},
	{Args: setup{Rate: second + 1, Burst: 10, Start: 0}, Bad: "ratePerSec"},
	{Args: setup{Rate: math.MaxUint64, Burst: 10, Start: 0}, Bad: "ratePerSec"},
	{Args: setup{Rate: 10, Burst: 0, Start: 0}, Bad: "burst"},
	{Args: setup{Rate: 10, Burst: 1_000_001, Start: 0}, Bad: "burst"},
	{Args: setup{Rate: 10, Burst: math.MaxUint64, Start: 0}, Bad: "burst"},
}

// newArguments is the new-arguments check: "rate" is enough to name
// ratePerSec.
func newArguments(impl New) check.Outcome {
	return check.NewArgs[setup]{
		Cases: argCases,
		Call:  newCall,
		Make:  func(s setup) { impl(s.Rate, s.Burst, s.Start) },
		Names: map[string][]string{"ratePerSec": {"rate"}, "burst": {"burst"}},
		Why:   "New accepts 1 ≤ ratePerSec ≤ 10^9 and 1 ≤ burst ≤ 10^6 and any nowNs. Outside that range it must panic with a message naming the argument at fault (a division by zero or an index out of range does not say which one); inside it, it must not panic.",
	}.Run()
}
