package grader_test

// hierarchyFixtures are the hierarchy suite's fixtures (see fixture).
var hierarchyFixtures = []fixture{
	// hierarchy: one known-buggy tree per pitfall...
	{exercise: "hierarchy", name: "charges-as-it-goes", fails: []string{"all-or-nothing"}, mistakes: []string{"charges-as-it-goes"}},
	{exercise: "hierarchy", name: "leaf-only", fails: []string{"shared-parent"}, mistakes: []string{"charges-node-only"}},
	// (a node off the path loses time, also when the call that moved the
	// clock named an unknown id: the grader once charged add-errors too)
	{exercise: "hierarchy", name: "path-clock", fails: []string{"lazy-refill"}, mistakes: []string{"path-clock"}},
	{exercise: "hierarchy", name: "wrapping-elapsed", fails: []string{"backward-time"}, mistakes: []string{"wrapping-elapsed"}},
	{exercise: "hierarchy", name: "truncating-refill", fails: []string{"fractional-tokens"}, mistakes: []string{"truncating-refill"}},
	{exercise: "hierarchy", name: "wrapping-product", fails: []string{"overflow"}, mistakes: []string{"wrapping-refill"}},
	// (the id it burns names an empty node too deep to be a parent, so
	// that an Add under it is refused for its depth, not its parent, and
	// TryAcquire of 0 tokens on it succeeds: exactness)
	{exercise: "hierarchy", name: "burns-an-id", fails: []string{"add-errors", "max-depth", "exactness"}, mistakes: []string{"burns-an-id"}},
	// ...a second deviation in each pitfall's family...
	{exercise: "hierarchy", name: "recursive-charge", fails: []string{"all-or-nothing"}, mistakes: []string{"charges-top-down"}},
	{exercise: "hierarchy", name: "flat-buckets", fails: []string{"shared-parent"}, mistakes: []string{"ignores-ancestors"}},
	{exercise: "hierarchy", name: "refill-on-advance", fails: []string{"lazy-refill"}, mistakes: []string{"refills-on-advance"}},
	{exercise: "hierarchy", name: "rewinds-clock", fails: []string{"backward-time"}, mistakes: []string{"rewinds-clock"}},
	{exercise: "hierarchy", name: "whole-seconds", fails: []string{"fractional-tokens"}, mistakes: []string{"whole-seconds"}},
	{exercise: "hierarchy", name: "wrapping-request", fails: []string{"overflow"}, mistakes: []string{"wrapping-request"}},
	{exercise: "hierarchy", name: "unknown-id-no-clock", fails: []string{"add-errors", "max-depth"}, mistakes: []string{"unknown-id-keeps-clock"}},
	// ...rules no other fixture breaks: a negative parent other than Root,
	// Available the least over the path...
	{exercise: "hierarchy", name: "negative-parent", fails: []string{"add-errors", "max-depth"}, mistakes: []string{"negative-parent-is-root"}},
	{exercise: "hierarchy", name: "available-leaf", fails: []string{"exactness"}, mistakes: []string{"available-node-only"}},
	// ...one correct but too slow...
	{exercise: "hierarchy", name: "eager-bigmath", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	// correct-flat (about 21 ns, the reference 18 in the same runs, both
	// with the other core busy) proves the budget passable by code other
	// than the reference, as eager-bigmath proves it can fail. The other
	// two (35 to 60 ns, a pointer per level or a recursion) sit at the
	// 40 ns budget, so a verdict on their speed would depend on the
	// machine: they prove the behavioural checks only.
	{exercise: "hierarchy", name: "correct-flat", bench: true},
	{exercise: "hierarchy", name: "correct-pointers"},
	{exercise: "hierarchy", name: "correct-recursive"},
}
