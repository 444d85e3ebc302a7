package hierarchy

import (
	"ratelab/grader/check"
	"ratelab/grader/report"
)

// Tree is the hierarchy API every implementation offers.
type Tree interface {
	Add(parent int, capacity, ratePerSec uint64) (int, error)
	TryAcquire(node int, nowNs, n uint64) bool
	Available(node int, nowNs uint64) uint64
}

// New builds a tree: hierarchy.New, adapted to return the interface.
type New func(nowNs uint64) Tree

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(impl).Runs(why) }
	run := func(s script) check.Trace { return replay(impl, s) }
	return check.Suite{
		Exercise:   "hierarchy",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "hierarchy/all-or-nothing", Title: "A refused message charges no level", Kind: report.Property, Pitfall: "all-or-nothing", Points: 6,
				Hint: "Check first, charge second: walk the whole path comparing n with each level, and only if every level can pay, walk it again subtracting. Charging as you go leaves the levels below the one that refused a token short for a message that was never sent.",
				Run:  prop(allOrNothingDomain, "A message refused by one level must take nothing from any level: the tokens are still there for the next, smaller message."),
			},
			{
				ID: "hierarchy/shared-parent", Title: "Every level on the path is charged", Kind: report.Property, Pitfall: "shared-parent", Points: 5,
				Hint: "A message passes through the session, its account and its firm: take n from every bucket on the path, so that siblings drain their one shared parent and a firm's sessions cannot add up to more than the firm's budget.",
				Run:  prop(sharedDomain, "A message that passes is charged at every level of its path, so sessions that share an account or a firm drain it together."),
			},
			{
				ID: "hierarchy/lazy-refill", Title: "A node earns for all the time that passed, on the path or not", Kind: report.Property, Pitfall: "lazy-refill", Points: 5,
				Hint: "Refilling only the nodes on the path is fine if each node remembers the tree time it was last refilled to and earns (now − that time) × rate when it is next used. Refilling with (now − the tree's latest time) forgets the time a node spent off the path.",
				Run:  prop(lazyDomain, "The tree has one clock: every node earns its refill for every nanosecond it advances, whether or not the node was on the path of the calls that moved it."),
			},
			{
				ID: "hierarchy/backward-time", Title: "Ignores a clock that steps back", Kind: report.Property, Pitfall: "backward-time", Points: 4,
				Hint: "Keep one latest time for the tree and use max(nowNs, latest) everywhere: an earlier time adds nothing at any level, must not underflow into a huge refill and must not rewind any node's clock.",
				Run:  prop(backwardDomain, "A time at or before the tree's latest time counts as that latest time, at every level and whatever node the call names."),
			},
			{
				ID: "hierarchy/fractional-tokens", Title: "Keeps fractional tokens between calls, at every level", Kind: report.Property, Pitfall: "fractional-tokens", Points: 4,
				Hint: "Count every node in units of 10^-9 token, so elapsed×rate is exact, and never round a refill down to whole tokens while moving the node's clock.",
				Run:  prop(fractionalDomain, "Those parts must add up to whole tokens at every level; rounding each refill down throws them away."),
			},
			{
				ID: "hierarchy/overflow", Title: "Stays exact for huge values and long idle", Kind: report.Property, Pitfall: "overflow", Points: 4,
				Hint: "elapsed×rate, capacity×10^9 and n×10^9 can all pass 2^64: use 128-bit products (math/bits.Mul64) or cap elapsed at the time to fill a node before multiplying.",
				Run:  prop(overflowDomain, "The values here are large: long idle, huge rates, capacities or requests, times next to MaxUint64. Every uint64 is legal, and products that leave 64 bits must not wrap."),
			},
			{
				ID: "hierarchy/add-errors", Title: "Refuses bad parents and unknown ids, changing nothing", Kind: report.Property, Pitfall: "add-errors", Points: 3,
				Hint: "Validate before you touch anything: a parent must be Root or an id Add returned (so 0 ≤ parent < number of nodes); a bad one returns -1 and an error that says \"parent\", and the next good Add still gets the next id. TryAcquire and Available on an id Add never returned answer false and 0, without indexing out of range, but their nowNs still moves the tree's clock.",
				Run:  prop(addErrorsDomain, "A bad Add returns -1 and an error naming the problem and changes nothing; a call on an id Add never returned answers false or 0, and still advances the tree's clock."),
			},
			{
				ID: "hierarchy/max-depth", Title: "Refuses a node deeper than MaxDepth (add-errors)", Kind: report.Case, Pitfall: "add-errors", Points: 1,
				Hint: "Keep each node's depth (1 for a top-level node, its parent's + 1 otherwise) and refuse an Add whose parent is already at MaxDepth with an error that says \"depth\".",
				Run: func(int64) check.Outcome {
					return check.Case(deepChain(), run, "A path holds at most MaxDepth = 8 nodes: a ninth level must be refused with -1 and an error naming the depth, and the tree stays as it was.")
				},
			},
			{
				ID: "hierarchy/exactness", Title: "Agrees with the exact model on every call", Kind: report.Property, Pitfall: "exactness", Points: 4,
				Hint: "Replay the counterexample by hand with one units counter per node: when the clock moves, every node earns elapsed×rate units capped at capacity×10^9; TryAcquire takes n×10^9 from every level of the path only if all hold it; Available is the least of the levels' whole tokens.",
				Run:  prop(exactDomain, "The tree must agree with the exact model on every call."),
			},
			{
				ID: "hierarchy/budget", Title: "TryAcquire within 40 ns and without allocating, 1,000 sessions", Kind: report.Benchmark, Pitfall: "budget", Points: 4,
				Hint: "Store nodes in a slice indexed by id with their parent's index, walk the path twice (check, then charge) with no allocation, no map and no recursion; the path is at most MaxDepth long.",
				Run:  func(int64) check.Outcome { return benchmark(r) },
			},
		},
	}
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
