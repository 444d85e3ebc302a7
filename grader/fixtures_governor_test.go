package grader_test

// governorFixtures are the governor suite's fixtures (see fixture).
var governorFixtures = []fixture{
	// governor: known-buggy implementations, each of one mistake...
	{exercise: "governor", name: "opens-at-ceiling", fails: []string{"slow-start"}, mistakes: []string{"opens-at-ceiling"}},
	{exercise: "governor", name: "grows-by-half", fails: []string{"slow-start"}, mistakes: []string{"grows-by-half"}},
	{exercise: "governor", name: "halving", fails: []string{"back-off"}, mistakes: []string{"halves-on-breach"}},
	{exercise: "governor", name: "no-severity-clamp", fails: []string{"back-off"}, mistakes: []string{"unclamped-severity"}},
	{exercise: "governor", name: "keeps-first-memory", fails: []string{"back-off"}, mistakes: []string{"keeps-first-memory"}},
	{exercise: "governor", name: "no-dead-band", fails: []string{"dead-band"}, mistakes: []string{"no-dead-band"}},
	{exercise: "governor", name: "high-is-breach", fails: []string{"dead-band"}, mistakes: []string{"high-is-breach"}},
	{exercise: "governor", name: "multiplicative-recovery", fails: []string{"recover-then-probe", "climb-after-back-off"}, mistakes: []string{"multiplicative-recovery"}},
	{exercise: "governor", name: "probes-by-one", fails: []string{"recover-then-probe", "climb-after-back-off"}, mistakes: []string{"probes-by-one"}},
	{exercise: "governor", name: "streak-not-reset", fails: []string{"memory-clear-step", "memory-clear"}, mistakes: []string{"streak-reset-only-by-breach"}},
	{exercise: "governor", name: "new-offer-evidence", fails: []string{"memory-clear"}, mistakes: []string{"evidence-at-new-offer"}},
	{exercise: "governor", name: "empty-keeps-streak", fails: []string{"memory-clear"}, mistakes: []string{"empty-keeps-streak"}},
	{exercise: "governor", name: "no-floor", fails: []string{"floor-ceiling", "opening-offer"}, mistakes: []string{"no-floor"}},
	{exercise: "governor", name: "double-past-ceiling", fails: []string{"floor-ceiling", "opening-offer"}, mistakes: []string{"doubles-past-ceiling"}},
	{exercise: "governor", name: "start-unclamped", fails: []string{"floor-ceiling", "opening-offer"}, mistakes: []string{"start-not-clamped"}},
	{exercise: "governor", name: "lifetime-ratio", fails: []string{"windowing"}, mistakes: []string{"lifetime-ratio"}},
	{exercise: "governor", name: "no-reset-check", fails: []string{"windowing"}, mistakes: []string{"wrapping-deltas"}},
	{exercise: "governor", name: "reset-zero-baseline", fails: []string{"windowing"}, mistakes: []string{"reset-zeroes-baseline"}},
	{exercise: "governor", name: "stale-offer", fails: []string{"exactness"}, mistakes: []string{"stale-offer"}},
	{exercise: "governor", name: "integer-frac", fails: []string{"exactness"}, mistakes: []string{"integer-frac"}},
	// ...and correct ones written differently from the reference.
	{exercise: "governor", name: "correct-table"},
	{exercise: "governor", name: "correct-events"},
}
