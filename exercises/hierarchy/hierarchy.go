// Package hierarchy is the first exercise of week 3: nested rate limits.
//
// Every function here panics with "not implemented" until you write it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API below is graded.
//
// # What to build
//
// A firm could open twenty sessions to get twenty budgets, so limits nest:
// a session within an account within a firm, and a message must pass every
// level. Build a tree of token buckets: Add(parent, capacity, ratePerSec)
// adds a node under parent (Root for a top-level node), and
// TryAcquire(node, nowNs, n) lets a message through only if the node AND
// every ancestor up to its top-level node can pay n tokens; then every one
// of them pays. Time is handed to you as nowNs: never read a clock.
//
// # The exact rules
//
// The grader checks your tree against this model, call for call:
//
//   - Every node is a week-1 token bucket, in units (1 token = 10^9
//     units): it starts full (capacity*10^9 units), a refill adds
//     elapsed*ratePerSec units, capped at capacity*10^9.
//   - The tree has ONE latest time seen. New(nowNs) sets it; any call with
//     a later nowNs advances it, whatever node it names, even an id Add
//     never returned. A nowNs at or before it counts as it: no time passed.
//   - Every node earns its refill for all the time the tree's clock
//     advanced, whether or not it was on the path of the calls in between.
//   - Add returns ids 0, 1, 2, ... in order. The new node starts full as of
//     the tree's latest time seen. A parent that is neither Root nor an id
//     Add returned is an error that says "parent"; a node that would be
//     deeper than MaxDepth is an error that says "depth". Either way Add
//     returns -1 and changes nothing.
//   - TryAcquire(node, nowNs, n): if every bucket on the path (the node, its
//     parent, ... up to its top-level node) holds at least n*10^9 units,
//     take that from every one and return true; otherwise take nothing
//     anywhere and return false. n == 0 succeeds.
//   - Available(node, nowNs) is the least, over the path, of each bucket's
//     whole tokens (units/10^9 rounded down). It takes none.
//   - An id Add never returned: TryAcquire false, Available 0, no panic.
//   - Every uint64 value of every time, capacity, rate and n is legal.
//
// # Traps
//
//   - All or nothing. Take from the session, then find the account empty,
//     and the session has lost a token for a message that was never sent.
//     Check every level first; charge only when all of them can pay.
//   - Shared parents. Two sessions of one account drain ONE account
//     bucket. Is the parent charged when a child's message passes?
//   - Lazy refill. Refilling only the nodes on the path is fine, as long
//     as a node that was off the path for a while still gets all the time
//     that passed. What does each node need to remember for that?
//   - Week 1's traps, at every level: fractions of a token, products that
//     leave 64 bits after a long idle at a huge rate, clocks that step back.
//   - Ids. -1, -2, an id past the last one: what does your code index?
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise hierarchy
//
// Each failed check names the mistake it found (only when the grader's
// model of that mistake gives every answer yours gave) and the shortest
// sequence of calls that shows it; one mistake costs its own points once.
//
// There is also a speed budget: TryAcquire, on a random session of a tree
// of one firm, 10 accounts and 1,000 sessions, must take at most 60 ns per
// call and allocate nothing in steady state. It is timed on traffic drawn
// afresh for every run, and your decisions are checked on each run's
// traffic. Allocations are counted on a run of their own, the same on every
// machine: 20,000 calls after a warm-up of 65,536, as a rate: at most one
// per 100 calls. Amortised growth is allowed (a map or a slice that grows
// as the traffic needs, a log grown a chunk at a time); an allocation on
// every call, or every few calls, is not.
package hierarchy

// Root is the parent of a top-level node (a firm, say).
const Root = -1

// MaxDepth is the most nodes on a path from a top-level node down, the node
// itself included: a top-level node is at depth 1.
const MaxDepth = 8

// Tree is your tree of token buckets. Its fields are yours to choose.
type Tree struct {
	// Your fields here.
}

// New returns an empty tree whose latest time seen is nowNs.
func New(nowNs uint64) *Tree {
	panic("hierarchy: New is not implemented yet")
}

// Add adds a full node of capacity tokens refilled at ratePerSec tokens
// per second under parent (Root for a top-level node) and returns its id,
// or -1 and an error naming the problem.
func (t *Tree) Add(parent int, capacity, ratePerSec uint64) (int, error) {
	panic("hierarchy: Add is not implemented yet")
}

// TryAcquire takes n tokens from node and every ancestor if all of them
// hold n tokens, and reports whether it did; otherwise it takes nothing.
func (t *Tree) TryAcquire(node int, nowNs, n uint64) bool {
	panic("hierarchy: TryAcquire is not implemented yet")
}

// Available returns the least, over node's path, of the whole tokens each
// level holds at nowNs. It takes none.
func (t *Tree) Available(node int, nowNs uint64) uint64 {
	panic("hierarchy: Available is not implemented yet")
}
