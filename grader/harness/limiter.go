package harness

// Limiter is what the grading child serves for an exercise whose API is
// its constructor (tokenbucket, gcra, slidingwindow, hierarchy, fairqueue,
// breaker): impl as "New", and the benchmark loop run on impl ("learner")
// and, beside it, on the reference's constructor ref ("reference").
func Limiter[N any](impl, ref N, loop func(newL N, seed uint64) func(n int) uint64) API {
	return Benched(map[string]any{"New": impl}, impl, ref, loop)
}

// Benched is what the grading child serves for an exercise whose API impl
// is reached through funcs (each a function of the learner's package, by
// name), with the benchmark loop run on impl ("learner") and, beside it,
// on the reference's ref ("reference"): the two loop names the budget
// check asks for (see check.Bench). A loop, given a run's seed, builds the
// run's state and traffic and returns the run (see check.Loop).
func Benched[I any](funcs map[string]any, impl, ref I, loop func(impl I, seed uint64) func(n int) uint64) API {
	return API{
		Funcs: funcs,
		Bench: map[string]func(uint64) func(int) uint64{
			"learner":   func(seed uint64) func(int) uint64 { return loop(impl, seed) },
			"reference": func(seed uint64) func(int) uint64 { return loop(ref, seed) },
		},
	}
}
