package grader_test

// gcraFixtures are the gcra suite's fixtures (see fixture).
var gcraFixtures = []fixture{
	// gcra: one known-buggy implementation per pitfall (two for
	// backward-time and overflow)...
	{exercise: "gcra", name: "burst-plus-one", fails: []string{"exactness", "rounding"}, unjudged: []string{"backward-time", "overflow"}},
	{exercise: "gcra", name: "no-validation", fails: []string{"new-arguments"}},
	{exercise: "gcra", name: "whole-ns", fails: []string{"rounding"}},
	{exercise: "gcra", name: "no-latest", fails: []string{"backward-time"}},
	{exercise: "gcra", name: "wrapping-elapsed", fails: []string{"backward-time"}},
	{exercise: "gcra", name: "wrapping-tat", fails: []string{"overflow"}},
	{exercise: "gcra", name: "wrapping-product", fails: []string{"overflow"}},
	// ...one correct but too slow...
	{exercise: "gcra", name: "bigmath", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "gcra", name: "correct-u128", bench: true},
	{exercise: "gcra", name: "correct-mixed", bench: true},
}
