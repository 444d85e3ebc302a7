package grader_test

// gcraFixtures are the gcra suite's fixtures (see fixture).
var gcraFixtures = []fixture{
	// gcra: one known-buggy implementation per pitfall (two for
	// backward-time and overflow)...
	{exercise: "gcra", name: "burst-plus-one", fails: []string{"exactness"}, mistakes: []string{"burst-plus-one"}},
	{exercise: "gcra", name: "no-validation", fails: []string{"new-arguments"}},
	{exercise: "gcra", name: "whole-ns", fails: []string{"rounding"}, mistakes: []string{"whole-ns-down"}},
	{exercise: "gcra", name: "no-latest", fails: []string{"backward-time"}, mistakes: []string{"trusts-earlier-now"}},
	{exercise: "gcra", name: "wrapping-elapsed", fails: []string{"backward-time"}, mistakes: []string{"wrapping-elapsed"}},
	{exercise: "gcra", name: "wrapping-tat", fails: []string{"overflow"}, mistakes: []string{"wrapping-tat"}},
	{exercise: "gcra", name: "wrapping-product", fails: []string{"overflow"}, mistakes: []string{"wrapping-ticks"}},
	// ...rules no fixture above breaks (TAT is max(TAT, now)+T; a refused
	// call changes nothing), and another rounding (T rounded up)...
	{exercise: "gcra", name: "tat-not-maxed", fails: []string{"exactness"}, mistakes: []string{"tat-not-maxed"}},
	{exercise: "gcra", name: "refused-moves-tat", fails: []string{"exactness"}, mistakes: []string{"refused-moves-tat"}},
	{exercise: "gcra", name: "whole-ns-up", fails: []string{"rounding"}, mistakes: []string{"whole-ns-up"}},
	// ...one correct but too slow...
	{exercise: "gcra", name: "bigmath", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "gcra", name: "correct-u128", bench: true},
	{exercise: "gcra", name: "correct-mixed", bench: true},
}
