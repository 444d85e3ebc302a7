// Package slidingwindow is the exercise of week 2: build a bucketed sliding
// window, the way many venues enforce "at most N messages in any one second".
//
// Every function here panics with "not implemented" until you write it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API below is graded.
//
// # What to build
//
// Split a window of windowNs nanoseconds into buckets of
// bucketNs = windowNs/buckets nanoseconds (integer division). Bucket number
// nowNs/bucketNs holds the calls accepted during it. A call is accepted while
// fewer than limit calls were accepted in its bucket and the buckets-1
// buckets before it. Time is handed to you as nowNs, nanoseconds on some
// monotonic clock: never read a clock yourself.
//
// # The exact rules
//
//   - New(limit, windowNs, buckets) panics, naming the argument, unless
//     buckets >= 1 and windowNs >= buckets. At first the current bucket is 0
//     and nothing has been accepted.
//   - The current bucket is the larger of nowNs/bucketNs and the latest
//     bucket seen: time never goes back.
//   - Count(nowNs) is the number of calls accepted in the current bucket and
//     the buckets-1 before it.
//   - TryAcquire(nowNs) accepts, counts the call in the current bucket and
//     returns true when Count(nowNs) < limit; otherwise it returns false and
//     counts nothing.
//   - Every uint64 nowNs is legal, MaxUint64 included, even when bucketNs is
//     1 and the bucket number itself is MaxUint64.
//   - Memory is O(buckets), and TryAcquire is O(1) amortised however many
//     buckets there are: summing every bucket on every call is too slow.
//
// # Traps
//
//   - Rejected calls. If refusals were counted, what would a client that
//     keeps retrying do to its own limit?
//   - Stale buckets. If you keep a ring of counters, a slot is reused by a
//     new bucket once the window has gone round. How do you know whether the
//     count in a slot belongs to a bucket still in the window? What if the
//     clock jumped several windows ahead?
//   - Marker values. A special bucket number meaning "empty slot" must never
//     be a bucket number a real time can produce. Which numbers can
//     nowNs/bucketNs produce?
//   - The window's edge. Exactly which buckets are in the window, and what
//     happens when buckets does not divide windowNs?
//   - Overflow. Which of your sums and products can pass MaxUint64 near the
//     end of time?
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise slidingwindow
//
// Each failed check names the mistake it found (only when the grader's
// model of that mistake gives every answer yours gave) and the shortest
// sequence of calls that shows it; one mistake costs its own points once.
//
// There is also a speed budget: TryAcquire, on a window of 1,024 buckets,
// must take at most 40 ns per call and allocate nothing in steady state. It
// is timed on traffic drawn afresh for every run, and your decisions are
// checked on each run's traffic. Allocations are counted on a run of their
// own, the same on every machine: 20,000 calls after a warm-up of 65,536,
// as a rate: at most one per 100 calls. Amortised growth is allowed (a map
// or a slice that grows as the traffic needs, a log grown a chunk at a
// time); an allocation on every call, or every few calls, is not.
package slidingwindow
