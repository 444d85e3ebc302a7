// Package breaker is the second exercise of week 5: the classic
// failure-driven circuit breaker, beside the operator's switch of the
// throttle exercise.
//
// Every function here panics with "not implemented" until you write it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API is graded.
//
// # What to build
//
// A service that calls a dependency wraps each call in a breaker. While
// the dependency works, the breaker is Closed and lets every call through.
// When it fails several times in a row, the breaker opens: for a while it
// refuses every call at once, instead of letting them pile up on something
// that is down. Then it half-opens and lets a few probe calls through: if
// they all succeed it closes again, if one fails it opens for another
// while. Nobody throws a switch: the calls' own outcomes decide. Time is
// handed to you as nowNs: never read a clock yourself.
//
// The caller asks Allow before each call. If Allow says ok, the caller
// makes the call and later reports how it went with Done, passing back the
// ticket Allow gave it. Calls can be slow, and many can be in flight at
// once, so reports arrive late and in any order.
//
// # The exact rules
//
//   - One clock: New sets it, every call with a later nowNs advances it,
//     and a nowNs at or before it counts as it (it earns nothing, rewinds
//     nothing, and an open period started then starts at the clock).
//   - Open becomes HalfOpen when now >= openedAt+OpenNs, observed by any
//     call (Allow, Done or State) before it does anything else. At
//     openedAt+OpenNs exactly the open period is over. If openedAt+OpenNs
//     is past MaxUint64, it never ends: the sum must not wrap.
//   - Closed: Allow is ok. A failure reported adds one to the count of
//     consecutive failures and a success sets it back to 0; when the count
//     reaches FailureThreshold the breaker opens, at now.
//   - Open: Allow refuses.
//   - HalfOpen: Allow is ok for the first HalfOpenProbes calls of this
//     half-open period and refuses every call after them. One failure
//     reported opens the breaker again (a new open period from now);
//     HalfOpenProbes successes close it, with a count of 0.
//   - Every change of state starts a new generation. Done ignores a ticket
//     from an earlier generation, and a ticket Allow never issued.
//   - New: a Config field that is 0 is an error naming that field (e.g.
//     "OpenNs must be at least 1"), and no breaker.
//
// # Traps
//
//   - Resetting on success. "Five failures" means five in a row: a success
//     in between starts the count again. Counting failures in total opens
//     a breaker on a dependency that fails now and then and is fine.
//   - The open period's end. Compare with >=, not >: at openedAt+OpenNs the
//     breaker is already HalfOpen. And openedAt+OpenNs can pass 2^64.
//   - Probes, not a flood. HalfOpen lets HalfOpenProbes calls through, not
//     HalfOpenProbes at a time: the (HalfOpenProbes+1)th call is refused
//     even after the first probes reported. One success does not close it
//     unless HalfOpenProbes is 1.
//   - Late reports. A call let through while Closed can report after the
//     breaker opened, or after it opened, probed and closed again. Its
//     success must not close a breaker that is Open or HalfOpen, and its
//     failure must not reopen or count against a later period. That is
//     what the generation in the ticket is for: tickets are yours to
//     design (the grader passes back only what Allow returned with ok,
//     each at most once, and values you never returned: 0, 1, the last one
//     plus 1, ...), so pick values that tell you which generation they
//     belong to, and whether you issued them at all.
//   - The clock going back. A nowNs earlier than the latest seen must not
//     start an open period in the past.
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise breaker
//
// Each failed check names the mistake it found (only when the grader's
// model of that mistake gives every answer yours gave) and the shortest
// sequence of calls that shows it; one mistake costs its own points once.
//
// There is also a speed budget: an Allow and, when it is ok, its Done, on
// traffic where the breaker keeps opening, probing and closing, must take
// at most 40 ns per pair and allocate nothing in steady state. It is timed
// on traffic drawn afresh for every run, and your decisions are checked on
// each run's traffic. Allocations are counted on a run of their own, the
// same on every machine: 20,000 pairs after a warm-up of 65,536, as a rate:
// at most one per 100 pairs. Amortised growth is allowed (a map or a slice
// that grows as the traffic needs, a log grown a chunk at a time); an
// allocation on every pair, or every few pairs, is not.
package breaker
