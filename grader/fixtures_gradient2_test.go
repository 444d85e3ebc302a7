package grader_test

// gradient2Fixtures are the gradient2 suite's fixtures (see fixture).
var gradient2Fixtures = []fixture{
	// gradient2: one known-buggy implementation per pitfall...
	{exercise: "gradient2", name: "no-warmup", fails: []string{"warmup", "exactness"}},
	{exercise: "gradient2", name: "decay-not-kept", fails: []string{"long-rtt-decay", "exactness"}},
	{exercise: "gradient2", name: "app-limited-skips-rtt", fails: []string{"long-rtt-decay", "app-limited", "exactness"}},
	{exercise: "gradient2", name: "no-upper-clamp", fails: []string{"gradient-clamp", "exactness"}},
	{exercise: "gradient2", name: "no-smoothing", fails: []string{"smoothing", "exactness"}},
	{exercise: "gradient2", name: "no-limit-clamp", fails: []string{"floor-ceiling", "exactness"}},
	{exercise: "gradient2", name: "rounds-limit", fails: []string{"exactness"}},
	// ...one deviation each, which no other check may blame: a floor of 4
	// where MinLimit is 0, and RTTTolerance ignored...
	{exercise: "gradient2", name: "min-limit-four", fails: []string{"floor-ceiling"}},
	{exercise: "gradient2", name: "ignores-tolerance", fails: []string{"gradient-clamp", "exactness"}},
	// ...and correct ones written differently from the reference.
	{exercise: "gradient2", name: "correct-ring"},
	{exercise: "gradient2", name: "correct-deferred"},
}
