// Package gateway is the third exercise of week 3: the policy around a
// token bucket, as an exchange's order-entry gateway applies it.
//
// Every function here panics with "not implemented" until you write it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API is graded.
//
// # What to build
//
// Sessions belong to classes ("market-maker", "regular", ...). Each class
// gives a session two week-1 token buckets: Orders, shared by new orders
// and modifies, and Cancels, a budget of its own for cancels (or none at
// all: unlimited), because a client pulling its orders out of a fast
// market must not be trapped by the throttle. Heartbeats cost nothing.
// A session that keeps sending into an empty bucket is in a flood: its
// refusals escalate with the flood's age, from Reject to Silent to
// Disconnect. Operations can reload the configuration while sessions are
// open. Time is handed to you as nowNs: never read a clock yourself.
//
// # The exact rules
//
//   - A budget is tokenbucket's units model: 1 token = 10^9 units, it
//     starts full, refills (elapsed ns)*RatePerSec units capped at
//     Capacity*10^9, and a message takes 10^9 units or nothing. Capacity 0
//     means unlimited.
//   - One clock for the whole gateway: New sets it, every call with a
//     later nowNs advances it (a failed Open and an Admit on a closed
//     session too), and a nowNs at or before it counts as it. Only a
//     Reload that fails changes nothing at all.
//   - Validate: at least one class; per class Orders.Capacity >= 1 and
//     Orders.RatePerSec >= 1; a limited Cancels needs RatePerSec >= 1 and
//     a capacity and a rate at least those of Orders; if both escalation
//     times are set, SilenceAfterNs < DisconnectAfterNs. The error names
//     the field (e.g. Orders.RatePerSec) and, for a class's problem, the
//     class.
//   - Open: an unknown class, or a session already open, is an error. A
//     session's buckets start full at its first Open and belong to the
//     session id: after a Disconnect, Open reopens it with the buckets it
//     had (they kept earning while it was closed; a reconnect never refills
//     them). Reopening in another class switches its budgets as a Reload
//     would.
//   - Admit on a session that is not open answers Disconnect (Budget "",
//     RetryAfterNs 0), a heartbeat too. On an open one: a Heartbeat is
//     accepted and touches nothing; NewOrder and Modify take a token from
//     Orders; Cancel takes one from Cancels (always accepted when
//     unlimited).
//   - A refused message starts the session's flood, unless one is going on;
//     the flood ends at the session's next accepted NewOrder, Modify or
//     Cancel. A refusal at now in a flood that began at f is Disconnect if
//     DisconnectAfterNs > 0 and now-f >= DisconnectAfterNs (the session
//     closes, its flood ends), else Silent if SilenceAfterNs > 0 and
//     now-f >= SilenceAfterNs, else Reject.
//   - Reject and Silent name the budget that refused ("orders" or
//     "cancels") and RetryAfterNs: the least d such that the budget, left
//     alone, holds one whole token at now+d, i.e.
//     ceil((10^9 - units) / rate).
//   - Reload(cfg, now): an invalid cfg, or one without the class of an open
//     session, is an error naming the problem, and nothing changes. Else
//     every session is first refilled up to now at its OLD rates, then
//     every session whose class still exists (open or closed) switches to
//     its class's new budgets, keeping its units capped at the new
//     capacity; a budget that was unlimited starts full. A closed session
//     whose class is gone keeps its old budgets until it is reopened. New
//     escalation times apply to floods already under way.
//   - Every uint64 value of every time, capacity, rate and session id is
//     legal: no panic, no wraparound.
//
// # Traps
//
//   - Cancels. Do cancels come out of their own budget, or out of Orders?
//     What does a Cancels budget of capacity 0 refuse?
//   - Heartbeats. Does a heartbeat in the middle of a flood take a token,
//     end the flood, or start one? It must do none of these.
//   - Retry-after at the nanosecond. With 999_999_998 units at 3 tokens/s,
//     how long until a token? Round the right way.
//   - Escalation. The flood's age is counted from its FIRST refusal, not
//     the latest one, and an accepted message (not a heartbeat) resets it.
//   - Reconnects. A client that disconnects and reconnects must not get a
//     full bucket back: the budget belongs to the session id.
//   - Reloads. The time up to the reload was earned at the old rate; the
//     units carry over, capped at the new capacity. A reload that fails
//     must leave everything as it was, the clock too.
//   - Validation. An error that says "invalid config" does not tell
//     operations which class and which field to fix.
//   - Clocks that step back, in the buckets and in the flood's age.
//   - Overflow. elapsed*rate, Capacity*10^9 and now-f with times next to
//     MaxUint64: Go's uint64 arithmetic wraps silently (see math/bits).
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise gateway
//
// Each failed check names the mistake it found (only when the grader's
// model of that mistake gives every answer yours gave) and the shortest
// sequence of calls that shows it; one mistake costs its own points once.
//
// There is also a speed budget: Admit, among 1,000 open sessions, must take
// at most 100 ns per call and allocate nothing in steady state. It is timed
// on traffic drawn afresh for every run, and your decisions are checked on
// each run's traffic. Allocations are counted on a run of their own, the
// same on every machine: 20,000 calls after a warm-up of 65,536, as a rate:
// at most one per 100 calls. Amortised growth is allowed (a map or a slice
// that grows as the traffic needs, a log grown a chunk at a time); an
// allocation on every call, or every few calls, is not.
package gateway
