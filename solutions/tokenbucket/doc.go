// Package tokenbucket is the reference token bucket for week 1 of ratelab.
//
// A bucket holds up to capacity tokens and refills continuously at
// ratePerSec tokens per second. A request for n tokens takes all n or none.
// Time is always an argument, in nanoseconds on any monotonic clock: the
// package never reads a clock, so a decision can be replayed from a log.
//
// The bucket is exact for every uint64 value of every argument. Think of its
// content as a count of units, one token being 10^9 units, so that a refill
// of elapsedNs*ratePerSec units is an integer and no fraction of a token is
// ever lost to rounding. Large products are worked out in 128 bits.
//
// This package is not a general-purpose limiter: it has no waiting, no
// reservations and no locking. For those, see golang.org/x/time/rate.
package tokenbucket
