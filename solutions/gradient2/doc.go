// Package gradient2 is the reference gradient concurrency limit for week 4
// of ratelab, after Netflix concurrency-limits' Gradient2Limit.
//
// A server that queues work shows it in its latency before it shows it in
// errors. The limit compares two averages of the round-trip time (RTT): the
// short one, here the latest sample, and a long one, a slow exponential
// average. While they agree the limit grows by a small queue allowance per
// sample; when the short RTT rises above the long one (beyond a tolerance)
// the gradient long/short drops below 1 and the limit shrinks in
// proportion, never by more than half per sample, and smoothed:
//
//	gradient = max(0.5, min(1, RTTTolerance*long/short))
//	limit    = limit*(1-Smoothing) + (limit*gradient + queue)*Smoothing
//
// Averages, not minimums: RPC latencies are bursty, and a minimum drifts to
// an unrealistically low baseline that sheds load for nothing. The long
// average starts as the plain mean of the first 10 samples, then follows
// an exponential average over LongWindow samples, and is pulled down by 5%
// per sample while it is more than twice the short RTT, so that it returns
// to normal after a long overload instead of keeping the limit wide open.
// A sample taken while fewer than half the limit are in flight says nothing
// about capacity (the application, not the server, limited the load): it
// feeds the long average but leaves the limit alone.
//
// The package never reads a clock: RTTs are measured by the caller and
// passed in nanoseconds.
package gradient2
