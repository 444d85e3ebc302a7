package grader_test

// breakerFixtures are the breaker suite's fixtures (see fixture).
var breakerFixtures = []fixture{
	// breaker: one known-buggy breaker per pitfall (two for open-timeout)...
	{exercise: "breaker", name: "no-reset", fails: []string{"consecutive", "exactness"}},
	{exercise: "breaker", name: "strict-timeout", fails: []string{"open-timeout", "exactness"}},
	{exercise: "breaker", name: "wrapping-end", fails: []string{"open-timeout"}},
	{exercise: "breaker", name: "probes-unlimited", fails: []string{"half-open-probes", "exactness"}},
	{exercise: "breaker", name: "no-generation", fails: []string{"generation", "exactness"}},
	{exercise: "breaker", name: "raw-time", fails: []string{"backward-time"}},
	{exercise: "breaker", name: "no-validation", fails: []string{"exactness"}},
	// ...one correct but allocating...
	{exercise: "breaker", name: "ticket-map", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "breaker", name: "correct-gens", bench: true},
	{exercise: "breaker", name: "correct-deadline", bench: true},
}
