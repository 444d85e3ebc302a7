// Package tokenbucket is the first exercise of week 1: build a token bucket.
//
// Every function here panics with "not implemented" until you write it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API below is graded.
//
// # What to build
//
// A bucket holds at most capacity tokens and starts full. Tokens flow back in
// continuously at ratePerSec tokens per second, never beyond capacity. A
// request for n tokens takes all n, or none at all. Time is handed to you as
// nowNs, nanoseconds on some monotonic clock: never read a clock yourself.
//
// # The exact rules
//
// The grader checks your bucket against this model, call for call. Count
// the content in units, one token being 10^9 units:
//
//   - New(capacity, ratePerSec, nowNs) starts with capacity*10^9 units, and
//     nowNs as the latest time seen.
//   - A call at a nowNs later than the latest time seen first adds
//     (nowNs-latest)*ratePerSec units, capped at capacity*10^9, and makes
//     nowNs the latest time seen.
//   - A call at or before the latest time seen adds nothing, and the latest
//     time seen stays where it is.
//   - TryAcquire(nowNs, n) succeeds when n*10^9 is at most the units held,
//     and then removes them. n == 0 always succeeds and removes nothing.
//   - Available(nowNs) returns the units held divided by 10^9, rounded down,
//     and removes nothing.
//   - Every uint64 value of every argument is legal: 0, MaxUint64 and
//     everything between. No panic, no overflow, no wraparound.
//
// # Traps
//
// Almost every first attempt falls into one of these. Think each one
// through before you write code, and write a test for it:
//
//   - Fractions. At 1000 tokens per second, a client calling every 100 µs
//     earns a tenth of a token per call. Follow that tenth through your code:
//     is it still there at the next call?
//   - Overflow. How large can elapsed*rate be after a day idle at 10^6 per
//     second? With a rate of MaxUint64? How large are capacity*10^9 and
//     n*10^9 when capacity or n is huge? Go's uint64 arithmetic wraps
//     silently; the standard library's math/bits is worth a look.
//   - Clocks that step back. What is nowNs-latest when nowNs is the smaller
//     one? And what happens to the latest time seen?
//   - Partial takes. A request for more than is there must leave the bucket
//     exactly as it was.
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise tokenbucket
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
package tokenbucket
