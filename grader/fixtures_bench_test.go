package grader_test

// benchFixtures are the fixtures of the benchmarks' own rules (see
// fixture): correct code that games the timing, or allocates, beside code
// whose amortised growth the budget allows.
var benchFixtures = []fixture{
	// A bucket that records its answers on the benchmark's first run and
	// plays them back on the next ones (3.7 ns a call when every run had
	// the same traffic): every run now has traffic of its own, checked.
	{exercise: "tokenbucket", name: "memoizing", fails: []string{"budget"}, bench: true},
	// Allocations are a rate over the measured calls: one every call, one
	// every second call (read as 0 by a whole count per call), fail...
	{exercise: "tokenbucket", name: "allocates-every-call", fails: []string{"budget"}, bench: true, sites: []string{"tokenbucket.go:52 (new object)"}},
	{exercise: "gcra", name: "allocates-on-grant", fails: []string{"budget"}, bench: true, sites: []string{"gcra.go:61 (new object)"}},
	// ...one every thousand calls, a history grown a chunk at a time, is
	// amortised growth, which the budget allows.
	{exercise: "slidingwindow", name: "chunked-history", bench: true},
}
