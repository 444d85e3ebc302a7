package fairqueue

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// Queue is the fair queue API every implementation offers.
type Queue interface {
	Push(session uint32, cost uint64)
	Pop() (session uint32, cost uint64, ok bool)
	Len() int
}

// New builds a queue: fairqueue.New, adapted to return the interface.
type New func(quantum uint64) Queue

var api = check.API[New]{Remote: Remote, NotStarted: notStarted, Ref: reference, Loop: loop, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

func notStarted(impl New) bool {
	return check.Untouched(func() Queue { return impl(1) }, func(q Queue) { q.Push(0, 1) }, func(q Queue) { q.Pop() }, func(q Queue) { q.Len() })
}

// Checks is the fair queue's suite: New's quantum at its bounds, then
// properties on rounds and deficits; Push and Pop together get BudgetNs.
var Checks = check.Parts[New, domain, setup, op]{
	Exercise: "fairqueue", Prose: prose, API: api, BudgetNs: BudgetNs,
	Iteration: iteration,
	Mistakes:  mistakes, Replay: replay, Traps: traps,
	Domains: check.ByName(deficitDomain, largeDomain, roundDomain, turnDomain, fifoDomain, exactDomain), Property: domain.property,
	Fixed: map[string]func(New) check.Outcome{"new-arguments": newArguments},
}

func newArguments(impl New) check.Outcome {
	return check.NewArgs[uint64]{
		Cases: []check.ArgCase[uint64]{{Args: 1}, {Args: 1 << 32}, {Args: 0, Bad: "quantum"}, {Args: 1<<32 + 1, Bad: "quantum"}},
		Call:  func(q uint64) string { return "New(quantum=" + check.U(q) + ")" },
		Make:  func(q uint64) { impl(q) },
		Names: map[string][]string{"quantum": {"quantum"}},
		Why:   "New needs 1 <= quantum <= 1<<32; outside, it must panic with a message naming quantum.",
	}.Run()
}
