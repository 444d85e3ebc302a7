package harness

// Limiter is the API of a limiter exercise (tokenbucket, gcra,
// slidingwindow): its constructor impl as "New", and the benchmark loop
// run on impl ("learner") and on the reference's constructor ref
// ("reference").
func Limiter[N any](impl, ref N, loop func(newL N, n int) uint64) API {
	return API{
		Funcs: map[string]any{"New": impl},
		Bench: map[string]func(int) uint64{
			"learner":   func(n int) uint64 { return loop(impl, n) },
			"reference": func(n int) uint64 { return loop(ref, n) },
		},
	}
}
