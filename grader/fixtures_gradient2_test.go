package grader_test

// gradient2Fixtures are the gradient2 suite's fixtures (see fixture).
var gradient2Fixtures = []fixture{
	// gradient2: known-buggy implementations, each of one mistake...
	{exercise: "gradient2", name: "no-warmup", fails: []string{"warmup"}, mistakes: []string{"average-from-first-sample"}},
	{exercise: "gradient2", name: "integer-factor", fails: []string{"warmup"}, mistakes: []string{"integer-factor"}},
	{exercise: "gradient2", name: "decay-not-kept", fails: []string{"long-rtt-decay"}, mistakes: []string{"decay-lost"}},
	{exercise: "gradient2", name: "decay-after-app-check", fails: []string{"long-rtt-decay"}, mistakes: []string{"no-decay-when-app-limited"}},
	{exercise: "gradient2", name: "running-mean-decays", fails: []string{"long-rtt-decay"}, mistakes: []string{"warmup-keeps-decay"}},
	{exercise: "gradient2", name: "app-limited-skips-rtt", fails: []string{"app-limited"}, mistakes: []string{"app-limited-skips-rtt"}},
	{exercise: "gradient2", name: "app-limited-at-half", fails: []string{"app-limited"}, mistakes: []string{"app-limited-at-half"}},
	{exercise: "gradient2", name: "no-upper-clamp", fails: []string{"gradient-clamp"}, mistakes: []string{"no-upper-clamp"}},
	{exercise: "gradient2", name: "ignores-tolerance", fails: []string{"gradient-clamp"}, mistakes: []string{"ignores-tolerance"}},
	{exercise: "gradient2", name: "no-smoothing", fails: []string{"smoothing"}, mistakes: []string{"no-smoothing"}},
	{exercise: "gradient2", name: "queue-after-smoothing", fails: []string{"smoothing"}, mistakes: []string{"queue-after-smoothing"}},
	{exercise: "gradient2", name: "no-limit-clamp", fails: []string{"floor-ceiling"}, mistakes: []string{"no-limit-clamp"}},
	{exercise: "gradient2", name: "min-limit-four", fails: []string{"floor-ceiling"}, mistakes: []string{"zero-min-limit-is-four"}},
	{exercise: "gradient2", name: "rounds-limit", fails: []string{"exactness"}, mistakes: []string{"limit-rounds"}},
	{exercise: "gradient2", name: "whole-limit", fails: []string{"exactness"}, mistakes: []string{"whole-limit"}},
	{exercise: "gradient2", name: "nil-queue-zero", fails: []string{"exactness"}, mistakes: []string{"nil-queue-is-zero"}},
	// ...and correct ones written differently from the reference.
	{exercise: "gradient2", name: "correct-ring"},
	{exercise: "gradient2", name: "correct-deferred"},
}
