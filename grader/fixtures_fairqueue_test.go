package grader_test

// fairqueueFixtures are the fairqueue suite's fixtures (see fixture).
var fairqueueFixtures = []fixture{
	// fairqueue: one known-buggy queue per pitfall...
	{exercise: "fairqueue", name: "keeps-credit", fails: []string{"deficit-reset"}, mistakes: []string{"keeps-credit"}},
	{exercise: "fairqueue", name: "serves-early", fails: []string{"large-cost"}, mistakes: []string{"serves-large-at-once"}},
	{exercise: "fairqueue", name: "newcomer-first", fails: []string{"round-order"}, mistakes: []string{"newcomer-first"}},
	{exercise: "fairqueue", name: "quantum-every-pop", fails: []string{"turn"}, mistakes: []string{"quantum-every-pop"}},
	{exercise: "fairqueue", name: "lifo", fails: []string{"fifo"}, mistakes: []string{"lifo"}},
	// ...a second deviation in each pitfall's family (turn-survives-empty:
	// the next session's turn gets no quantum, which the grader once
	// blamed on the order of the round)...
	{exercise: "fairqueue", name: "push-resets-deficit", fails: []string{"deficit-reset"}, mistakes: []string{"resets-on-every-push"}},
	{exercise: "fairqueue", name: "subtract-first", fails: []string{"large-cost"}, mistakes: []string{"wrapping-deficit"}},
	{exercise: "fairqueue", name: "ring-pointer", fails: []string{"round-order"}, mistakes: []string{"ring-append"}},
	{exercise: "fairqueue", name: "turn-survives-empty", fails: []string{"turn"}, mistakes: []string{"turn-survives-empty"}},
	{exercise: "fairqueue", name: "requeue-back", fails: []string{"fifo"}, mistakes: []string{"requeues-at-back"}},
	// ...rules no other fixture breaks: Len, Pop going on until a command
	// is served, New's check of quantum...
	{exercise: "fairqueue", name: "len-sessions", fails: []string{"exactness"}, mistakes: []string{"len-counts-sessions"}},
	{exercise: "fairqueue", name: "gives-up", fails: []string{"exactness"}, mistakes: []string{"gives-up-at-turn-end"}},
	{exercise: "fairqueue", name: "unchecked-quantum", fails: []string{"new-arguments"}},
	// ...one correct but too slow...
	{exercise: "fairqueue", name: "scans-sessions", fails: []string{"budget"}, bench: true, sites: []string{"fairqueue.go:45 (append)"}},
	// ...and correct ones written differently from the reference.
	{exercise: "fairqueue", name: "correct-slices", bench: true},
	{exercise: "fairqueue", name: "correct-maps"}, // ~100 ns against the 100 ns budget: behaviour only
}
