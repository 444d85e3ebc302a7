// Package throttle is the reference of week 5's first exercise: three
// throttles that can each refuse a write, applied in one order.
//
// An operator's circuit breaker (Normal, Degraded with a write cap per
// period, Paused) comes first; then a per-address sliding-window rate limit
// (a global limit, per-address overrides that win over it, a whitelist that
// skips it and nothing else); congestion throttling never refuses anything
// itself: only AdjustCongestion, the keeper, reads the accepted writes of
// its window and moves the global limit by basis points when the load level
// changes.
//
// Time is always an argument, in nanoseconds on any monotonic clock: the
// package never reads a clock. The gate has one clock, the latest time any
// call brought; an earlier time counts as that latest time.
//
// A Gate is not safe for concurrent use.
package throttle
