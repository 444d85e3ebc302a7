package hierarchy

import (
	_ "embed"

	"ratelab/grader/check"
)

// Tree is the hierarchy API every implementation offers.
type Tree interface {
	Add(parent int, capacity, ratePerSec uint64) (int, error)
	TryAcquire(node int, nowNs, n uint64) bool
	Available(node int, nowNs uint64) uint64
}

// New builds a tree: hierarchy.New, adapted to return the interface.
type New func(nowNs uint64) Tree

//go:embed checks.json
var prose []byte

// domains are the properties' domains, by check name.
var domains = check.ByName(allOrNothingDomain, sharedDomain, lazyDomain, backwardDomain, fractionalDomain, overflowDomain, addErrorsDomain, exactDomain)

// parts are the suite's checks; their words are in checks.json.
var parts = check.Parts[New, domain, setup, op]{
	Exercise: "hierarchy", Prose: prose, Remote: Remote, NotStarted: notStarted,
	Domains: domains, Property: domain.property,
	Runs: func(impl New) map[string]check.Runner {
		return map[string]check.Runner{"max-depth": check.Scripted(deepChain(), func(s script) check.Trace { return replay(impl, s) })}
	},
	Ref: refNew, Loop: loop, BudgetNs: check.LimiterBudgetNs,
}

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite { return parts.Suite(r) }

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

// notStarted reports whether impl is the untouched stub.
func notStarted(impl New) bool {
	return check.Untouched(func() Tree { return impl(0) }, func(t Tree) { t.Add(rootID, 1, 1) }, func(t Tree) { t.TryAcquire(0, 0, 1) }, func(t Tree) { t.Available(0, 0) })
}
