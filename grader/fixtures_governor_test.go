package grader_test

// governorFixtures are the governor suite's fixtures (see fixture).
var governorFixtures = []fixture{
	// governor: one known-buggy implementation per pitfall (two for
	// slow-start)...
	{exercise: "governor", name: "opens-at-ceiling", fails: []string{"slow-start", "exactness"}},
	{exercise: "governor", name: "grows-by-half", fails: []string{"slow-start", "floor-ceiling", "exactness"}},
	{exercise: "governor", name: "halving", fails: []string{"back-off", "floor-ceiling", "exactness"}},
	{exercise: "governor", name: "no-dead-band", fails: []string{"dead-band", "exactness"}},
	{exercise: "governor", name: "multiplicative-recovery", fails: []string{"recover-then-probe", "climb-after-back-off", "floor-ceiling", "exactness"}},
	{exercise: "governor", name: "streak-not-reset", fails: []string{"memory-clear-step", "memory-clear", "exactness"}},
	{exercise: "governor", name: "no-floor", fails: []string{"floor-ceiling", "exactness"}},
	{exercise: "governor", name: "lifetime-ratio", fails: []string{"climb-after-back-off", "memory-clear", "windowing", "exactness"}},
	{exercise: "governor", name: "stale-offer", fails: []string{"exactness"}},
	// ...and correct ones written differently from the reference.
	{exercise: "governor", name: "correct-table"},
	{exercise: "governor", name: "correct-events"},
}
