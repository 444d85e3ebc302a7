// Package slidingwindow is the reference bucketed sliding window for week 2 of
// ratelab.
//
// The window of windowNs nanoseconds is split into buckets of
// windowNs/buckets nanoseconds each. A call is accepted while fewer than limit
// calls were accepted in its bucket and the buckets-1 before it. More buckets
// give a tighter guarantee (any interval shorter than windowNs minus one
// bucket holds at most limit calls) for more memory.
//
// Unlike a fixed window, it never lets 2*limit calls through around a
// boundary; unlike a sliding log, it stores counts, not timestamps. It is
// exact: it does not interpolate between windows.
//
// Time is an argument, in nanoseconds on any monotonic clock: the package
// never reads a clock.
package slidingwindow
