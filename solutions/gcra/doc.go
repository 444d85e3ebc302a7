// Package gcra is the reference Generic Cell Rate Algorithm (GCRA) for week 1
// of ratelab.
//
// GCRA is a token bucket written as a schedule: instead of counting tokens it
// keeps the theoretical arrival time (TAT), the time the next call would be
// due if the client sent at exactly the rate. A call that comes more than the
// burst tolerance ahead of that schedule is refused; one that conforms pushes
// the schedule forward by one emission interval. A GCRA made with
// New(ratePerSec, burst, now) decides every call exactly as
// tokenbucket.New(burst, ratePerSec, now) would with n = 1, in any order of
// times, for every rate in range: not only rates that divide a second.
//
// Time is an argument, in nanoseconds on any monotonic clock: the package
// never reads a clock.
package gcra
