package grader_test

// breakerFixtures are the breaker suite's fixtures (see fixture).
var breakerFixtures = []fixture{
	// breaker: one known-buggy breaker per pitfall (two for consecutive and open-timeout)...
	{exercise: "breaker", name: "no-reset", fails: []string{"consecutive"}, mistakes: []string{"counts-in-total"}},
	// keeps-count's shortest failing script has 9 calls: with a
	// threshold of 1 a count carried over changes nothing, so it takes 2
	// failures to open (Allow and Done each), a probe and its success to
	// close, one failure after that and a call to see the breaker Open.
	{exercise: "breaker", name: "keeps-count", fails: []string{"consecutive"}, mistakes: []string{"keeps-count-on-close"}, maxSteps: 9},
	{exercise: "breaker", name: "strict-timeout", fails: []string{"open-timeout"}, mistakes: []string{"strict-end"}},
	{exercise: "breaker", name: "wrapping-end", fails: []string{"open-timeout"}, mistakes: []string{"wrapping-end"}},
	{exercise: "breaker", name: "probes-unlimited", fails: []string{"half-open-probes"}, mistakes: []string{"too-many-probes"}},
	{exercise: "breaker", name: "no-generation", fails: []string{"generation"}, mistakes: []string{"ignores-generation"}},
	{exercise: "breaker", name: "raw-time", fails: []string{"backward-time"}, mistakes: []string{"opens-at-call-time"}},
	// ...another deviation for each pitfall that had one, and rules no
	// fixture above breaks (State ends an open period too; Done's nowNs
	// moves the clock; New sets it)...
	{exercise: "breaker", name: "one-success", fails: []string{"half-open-probes"}, mistakes: []string{"one-success-closes"}},
	{exercise: "breaker", name: "accepts-future", fails: []string{"generation"}, mistakes: []string{"accepts-unissued"}},
	{exercise: "breaker", name: "new-ignores-now", fails: []string{"backward-time"}, mistakes: []string{"ignores-start"}},
	{exercise: "breaker", name: "state-stale", fails: []string{"open-timeout"}, mistakes: []string{"state-ignores-time"}},
	{exercise: "breaker", name: "done-no-clock", fails: []string{"exactness"}, mistakes: []string{"done-ignores-time"}},
	// ...New's validation, judged by its own table (no mistake names it)...
	{exercise: "breaker", name: "no-validation", fails: []string{"exactness"}},
	// ...one correct but allocating...
	{exercise: "breaker", name: "ticket-map", fails: []string{"budget"}, bench: true, sites: []string{"breaker.go:66 (new object)", "breaker.go:95 (new object)"}},
	// ...and correct ones written differently from the reference.
	{exercise: "breaker", name: "correct-gens", bench: true},
	{exercise: "breaker", name: "correct-deadline", bench: true},
}
