// Package gcra is the second exercise of week 1: build a GCRA, the Generic
// Cell Rate Algorithm.
//
// Every function here panics with "not implemented" until you write it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API below is graded.
//
// # What to build
//
// GCRA is a token bucket written as a schedule. Instead of counting tokens it
// remembers the theoretical arrival time (TAT): when the next call would be
// due if the client sent at exactly ratePerSec calls per second. With the
// emission interval T = 1/ratePerSec and the burst tolerance
// tau = (burst-1)*T, a call at time now conforms when TAT-now <= tau; a
// conforming call sets TAT to max(TAT, now)+T. Time is handed to you as
// nowNs, nanoseconds on some monotonic clock: never read a clock yourself.
//
// # The exact rules
//
//   - New(ratePerSec, burst, nowNs) accepts 1 <= ratePerSec <= 10^9 and
//     1 <= burst <= 10^6, and panics otherwise with a message that names the
//     argument, for example "gcra: burst must be in [1, 1e6], got 0".
//   - Its decisions equal, call for call, those of the token bucket
//     tokenbucket.New(burst, ratePerSec, nowNs) taking one token per call
//     (see the tokenbucket exercise for that model), whatever the order of
//     the times and for every rate in range.
//   - A nowNs earlier than one already seen counts as the latest time seen:
//     a clock that steps back never refuses what the bucket would grant.
//   - Every uint64 nowNs is legal, MaxUint64 included. No panic, no
//     overflow, no wraparound.
//
// # Traps
//
//   - Rounding. T is 10^9/ratePerSec nanoseconds. At 3 calls per second that
//     is 333_333_333.33... ns: what happens to your decisions, call after
//     call, if you round it? The grader tries rates that do not divide 10^9.
//   - Overflow. Where does TAT go when nowNs is close to MaxUint64 and the
//     schedule runs ahead of it? What does any product with the elapsed time
//     give after a very long idle?
//   - Clocks that step back. What is TAT-now when now is far behind? What
//     should a time earlier than the latest one count as?
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise gcra
//
// Each failed check names the mistake it found (only when the grader's
// model of that mistake gives every answer yours gave) and the shortest
// sequence of calls that shows it; one mistake costs its own points once.
//
// There is also a speed budget: TryAcquire must take at most 40 ns per call
// and allocate nothing in steady state. It is timed on traffic drawn afresh
// for every run, and your decisions are checked on each run's traffic.
// Allocations are counted on a run of their own, the same on every machine:
// 20,000 calls after a warm-up of 65,536, as a rate: at most one per 100
// calls. Amortised growth is allowed (a map or a slice that grows as the
// traffic needs, a log grown a chunk at a time); an allocation on every
// call, or every few calls, is not.
package gcra
