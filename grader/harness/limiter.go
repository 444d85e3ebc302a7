package harness

// Limiter is what the grading child serves for an exercise whose API is
// its constructor (tokenbucket, gcra, slidingwindow, hierarchy, fairqueue,
// breaker): impl as "New", and the benchmark loop run on impl ("learner")
// and, beside it, on the reference's constructor ref ("reference").
func Limiter[N any](impl, ref N, loop func(newL N, n int) uint64) API {
	return API{
		Funcs: map[string]any{"New": impl},
		Bench: map[string]func(int) uint64{
			"learner":   func(n int) uint64 { return loop(impl, n) },
			"reference": func(n int) uint64 { return loop(ref, n) },
		},
	}
}
