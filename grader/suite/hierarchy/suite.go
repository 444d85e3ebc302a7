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
var domains = map[string]domain{
	"all-or-nothing":    allOrNothingDomain,
	"shared-parent":     sharedDomain,
	"lazy-refill":       lazyDomain,
	"backward-time":     backwardDomain,
	"fractional-tokens": fractionalDomain,
	"overflow":          overflowDomain,
	"add-errors":        addErrorsDomain,
	"exactness":         exactDomain,
}

// Suite returns the checks of the implementation r serves; a nil r only
// lists them. Their words are in checks.json.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	runs := check.Properties(domains, func(d domain) check.Property[setup, op] { return d.property(impl) })
	runs["max-depth"] = check.Scripted(deepChain(), func(s script) check.Trace { return replay(impl, s) })
	runs["budget"] = check.Fixed(func() check.Outcome { return benchmark(r) })
	return check.NewSuite("hierarchy", prose, func() bool { return notStarted(impl) }, runs)
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

// notStarted reports whether impl is the untouched stub.
func notStarted(impl New) bool {
	t, p := check.Call(func() Tree { return impl(0) })
	if p != nil {
		return p.Stub()
	}
	_, p1 := check.Call(func() addAnswer { id, err := t.Add(rootID, 1, 1); return addAnswer{id, err} })
	_, p2 := check.Call(func() bool { return t.TryAcquire(0, 0, 1) })
	_, p3 := check.Call(func() uint64 { return t.Available(0, 0) })
	return p1.Stub() && p2.Stub() && p3.Stub()
}
