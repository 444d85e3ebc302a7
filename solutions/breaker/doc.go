// Package breaker is the reference failure-driven circuit breaker of week 5
// of ratelab: the classic Closed, Open and HalfOpen machine that protects a
// caller from a dependency that keeps failing.
//
// Closed lets every call through and counts consecutive failures; enough
// of them open it. Open refuses every call for a fixed time, then lets a
// few probes through (HalfOpen): they all succeed and it closes, one fails
// and it opens again. Every change of state starts a new generation, and a
// call's report (Done) counts only in the generation that let it through,
// so a slow call that started before the breaker opened can neither close
// it nor open it again.
//
// It is not the operator-driven breaker of package throttle, which a person
// switches between Normal, Degraded and Paused: this one decides for
// itself, from what the calls report.
//
// Time is always an argument, in nanoseconds on any monotonic clock: the
// package never reads a clock. The breaker has one clock, the latest time
// any call brought; an earlier time counts as that latest time.
//
// A Breaker is not safe for concurrent use: wrap it in a mutex to share it.
package breaker
