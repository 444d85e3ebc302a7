package grader_test

// fairqueueFixtures are the fairqueue suite's fixtures (see fixture).
var fairqueueFixtures = []fixture{
	// fairqueue: one known-buggy queue per pitfall...
	{exercise: "fairqueue", name: "keeps-credit", fails: []string{"deficit-reset", "exactness"}, unjudged: []string{"large-cost", "fifo"}},
	{exercise: "fairqueue", name: "serves-early", fails: []string{"large-cost", "exactness"}},
	{exercise: "fairqueue", name: "newcomer-first", fails: []string{"round-order", "exactness"}, unjudged: []string{"deficit-reset", "large-cost", "turn", "fifo"}},
	// (a second quantum within a turn also serves big commands early)
	{exercise: "fairqueue", name: "quantum-every-pop", fails: []string{"large-cost", "turn", "exactness"}, unjudged: []string{"deficit-reset", "round-order", "fifo"}},
	{exercise: "fairqueue", name: "lifo", fails: []string{"fifo", "exactness"}, unjudged: []string{"deficit-reset"}},
	// ...one correct but too slow...
	{exercise: "fairqueue", name: "scans-sessions", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "fairqueue", name: "correct-slices", bench: true},
	{exercise: "fairqueue", name: "correct-maps"}, // ~100 ns against the 100 ns budget: behaviour only
}
