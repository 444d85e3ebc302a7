package hierarchy

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// Tree is the hierarchy API every implementation offers.
type Tree interface {
	Add(parent int, capacity, ratePerSec uint64) (int, error)
	TryAcquire(node int, nowNs, n uint64) bool
	Available(node int, nowNs uint64) uint64
}

// New builds a tree: hierarchy.New, adapted to return the interface.
type New func(nowNs uint64) Tree

var api = check.API[New]{Remote: Remote, NotStarted: notStarted, Ref: reference, Loop: loop, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

func notStarted(impl New) bool {
	return check.Untouched(func() Tree { return impl(0) }, func(t Tree) { t.Add(rootID, 1, 1) }, func(t Tree) { t.TryAcquire(0, 0, 1) }, func(t Tree) { t.Available(0, 0) })
}

// Checks is the hierarchy's suite; its one scripted check builds a chain
// as deep as the contract allows, and TryAcquire on a session three levels
// down has BudgetNs (60 ns).
var Checks = check.Parts[New, domain, setup, op]{
	Exercise: "hierarchy", Prose: prose, API: api, BudgetNs: BudgetNs,
	Iteration: iteration,
	Mistakes:  mistakes, Replay: replay, Traps: traps,
	Domains: check.ByName(allOrNothingDomain, sharedDomain, lazyDomain, backwardDomain, fractionalDomain, overflowDomain, addErrorsDomain, exactDomain), Property: domain.property,
	Runs: func(impl New) map[string]check.Runner {
		return map[string]check.Runner{"max-depth": check.Scripted(deepChain(), func(s script) check.Trace { return replay(impl, s) })}
	},
}

// deepChain builds a chain of MaxDepth nodes, Adds a ninth level under it
// (refused), then a sibling of the deepest node (id 8) and uses it.
func deepChain() script {
	var ops []op
	for i := range maxDepth {
		ops = append(ops, op{Kind: add, Node: i - 1, N: 1, Rate: 1})
	}
	ops = append(ops,
		op{Kind: add, Node: maxDepth - 1, N: 1, Rate: 1},
		op{Kind: add, Node: maxDepth - 2, N: 1, Rate: 1},
		op{Node: maxDepth, N: 1})
	return script{Ops: ops}
}
