package slidingwindow

import (
	"math"

	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// Window is the sliding window API every implementation offers.
type Window interface {
	Count(nowNs uint64) uint32
	TryAcquire(nowNs uint64) bool
}

// New builds a window: slidingwindow.New, adapted to return the interface.
type New func(limit uint32, windowNs uint64, buckets int) Window

var api = check.API[New]{Remote: Remote, NotStarted: notStarted, Ref: reference, Loop: loop, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

func notStarted(impl New) bool {
	return check.Untouched(func() Window { return impl(1, 1, 1) }, func(w Window) { w.Count(0) }, func(w Window) { w.TryAcquire(0) })
}

// Checks is the sliding window's suite, with New's arguments (a window or
// a bucket count of zero must be refused by name) and a budget that a
// window of 1,024 buckets must keep.
var Checks = check.Parts[New, domain, setup, op]{
	Exercise: "slidingwindow", Prose: prose, API: api, BudgetNs: check.LimiterBudgetNs,
	Iteration: iteration,
	Mistakes:  mistakes, Replay: replay, Traps: traps,
	Domains: check.ByName(rejectedDomain, staleDomain, edgeDomain, backwardDomain, overflowDomain, exactDomain), Property: domain.property,
	Fixed: map[string]func(New) check.Outcome{"new-arguments": newArguments},
}

// argCases call New with valid arguments at the ends of their range and
// with invalid ones.
var argCases = []check.ArgCase[setup]{
	{Args: setup{Limit: 1, WindowNs: 1, Buckets: 1}},
	{Args: setup{Limit: 0, WindowNs: math.MaxUint64, Buckets: 1}},
	{Args: setup{Limit: 5, WindowNs: 1000, Buckets: 1000}},
	{Args: setup{Limit: 1, WindowNs: 10, Buckets: 0}, Bad: "buckets"},
	{Args: setup{Limit: 1, WindowNs: 10, Buckets: -1}, Bad: "buckets"},
	{Args: setup{Limit: 1, WindowNs: 0, Buckets: 1}, Bad: "windowNs", Also: []string{"buckets"}},
	{Args: setup{Limit: 1, WindowNs: 3, Buckets: 4}, Bad: "windowNs", Also: []string{"buckets"}},
}

// newArguments is the new-arguments check. When windowNs < buckets,
// either name will do: the two disagree. When only buckets is bad, a
// message that names windowNs blames an argument that is valid.
func newArguments(impl New) check.Outcome {
	return check.NewArgs[setup]{
		Cases: argCases,
		Call:  newCall,
		Make:  func(s setup) { impl(s.Limit, s.WindowNs, s.Buckets) },
		Names: map[string][]string{"windowNs": {"window"}, "buckets": {"bucket"}},
		Why:   "New needs buckets ≥ 1 and windowNs ≥ buckets (so that a bucket lasts at least 1 ns); any limit is valid, 0 included. Invalid arguments must panic with a message naming the argument at fault and not the other, which is valid (a division by zero or a failed allocation does not say which); valid ones must not panic.",
	}.Run()
}
