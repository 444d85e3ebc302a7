package tokenbucket

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// Bucket is the token bucket API every implementation offers.
type Bucket interface {
	TryAcquire(nowNs, n uint64) bool
	Available(nowNs uint64) uint64
}

// New builds a bucket: tokenbucket.New, adapted to return the interface.
type New func(capacity, ratePerSec, nowNs uint64) Bucket

var api = check.API[New]{Remote: Remote, NotStarted: notStarted, Ref: reference, Loop: loop, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

func notStarted(impl New) bool {
	return check.Untouched(func() Bucket { return impl(1, 1, 0) }, func(b Bucket) { b.TryAcquire(0, 1) }, func(b Bucket) { b.Available(0) })
}

// Checks is the token bucket's suite: beside its properties, two cases
// pin down a bucket that starts full and a token that comes on the
// nanosecond it is due; TryAcquire has the limiters' 40 ns.
var Checks = check.Parts[New, domain, setup, op]{
	Exercise: "tokenbucket", Prose: prose, API: api, Runs: cases, BudgetNs: check.LimiterBudgetNs,
	Iteration: iteration,
	Mistakes:  mistakes, Replay: replay, Traps: traps,
	Domains: check.ByName(capacityDomain, fractionalDomain, partialDomain, backwardDomain, overflowDomain, exactDomain), Property: domain.property,
}

// cases are the suite's two cases, starts-full and waits-exactly.
func cases(impl New) map[string]check.Runner {
	run := func(s script) check.Trace { return replay(impl, s) }
	return map[string]check.Runner{
		"starts-full": check.Scripted(script{Setup: setup{Capacity: 5, Rate: 1, Start: 1000}, Ops: []op{
			{Available: true}, {N: 5}, {Available: true}, {N: 1},
		}}, run),
		"waits-exactly": check.Scripted(everyHundredMicros(), run),
	}
}

func everyHundredMicros() script {
	// A request for nothing first, which every mistake the suite models
	// grants: code that refuses it is not excused by one of them.
	ops := []op{{N: 0}, {N: 1}} // then take the only token
	for range 10 {
		ops = append(ops, op{When: check.When{Wait: 100_000}, N: 1})
	}
	return script{Setup: setup{Capacity: 1, Rate: 1000}, Ops: ops}
}
