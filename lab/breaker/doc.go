// Package breaker is the week 5 "failure-driven breaker" simulation:
// clients calling a backend that fails for a while and recovers, once
// through a circuit breaker (the breaker exercise: the reference, or the
// learner's) and once with no breaker, on the same traffic.
//
// Each client sends a request at a steady pace and retries a failed
// attempt a few times, a short wait apart. With the breaker, an attempt
// asks Allow first: a refused one fails at once without reaching the
// backend, an allowed one reaches it and its result is reported with Done
// when it arrives. Without the breaker every attempt, retries included,
// reaches the backend: the retry storm the breaker prevents.
//
// The backend answers a healthy call quickly, except a few slow ones (and
// every one started in a slow span of the scenario); while it is down it
// fails calls quickly, except a few that hang until a timeout (or all of
// them, as the scenario says). Slow calls and hung ones are the late
// results of the lesson: a call let through before the breaker changed
// state that reports after it did.
// The simulation numbers the breaker's generations from outside, by the
// state changes it observes with State, and marks every report of an
// earlier generation as late, with the state and the generation before and
// after it: a breaker that honours generations changes neither.
//
// Everything runs in virtual time, deterministically for a seed, without
// I/O. Which calls are slow or hang is a hash of the seed and the call, so
// both runs of a scenario see the same backend. Nothing is safe for
// concurrent use.
package breaker
