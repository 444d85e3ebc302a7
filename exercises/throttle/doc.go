// Package throttle is the first exercise of week 5: three throttles that
// can each refuse a write, and the one order in which they decide.
//
// Every function here panics with "not implemented" until you write it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API is graded.
//
// # What to build
//
// A gate in front of mutating calls ("writes") with three independently
// configured systems. The operator's circuit breaker: Normal, Degraded (at
// most DegradedWriteLimit writes per degraded period) or Paused (nothing
// passes), each period ending by itself after TTLNs if AutoRecover. A rate
// limit per address: a sliding window of MaxCalls accepted writes per
// WindowNs, global, or an override for one address that wins over it; a
// whitelist that skips the rate limit. And congestion throttling, which
// refuses nothing: a keeper calls AdjustCongestion, which counts the
// accepted writes of its window, sets the load level and, when the level
// changes, moves the GLOBAL limit by basis points. Status reads the whole
// picture in one call. Time is handed to you as nowNs: never read a clock
// yourself.
//
// # The exact rules
//
//   - One clock: New sets it, every call that takes a time (Write, Status,
//     AdjustCongestion, SetState) moves it to nowNs if that is later, and a
//     nowNs at or before it counts as it.
//   - Every such call first applies automatic recovery: with AutoRecover, a
//     Degraded or Paused period is over once now >= RecoverAtNs (at
//     RecoverAtNs itself it is over), as if SetState(Normal) had been called
//     then: RecoverAtNs = 0, DegradedWrites = 0.
//   - SetState(Degraded or Paused) starts a new period, even from the same
//     state: DegradedWrites = 0 and RecoverAtNs = now+TTLNs (saturating at
//     MaxUint64) with AutoRecover, else 0. SetState(Normal) ends it
//     (RecoverAtNs = 0, DegradedWrites = 0).
//   - Write checks, in this order, and stops at the first refusal: Paused:
//     ErrPaused (whitelisted addresses too); Degraded with DegradedWrites >=
//     DegradedWriteLimit: ErrDegradedLimit (whitelisted too); then, unless
//     the address is whitelisted, its rate limit (its override if it has
//     one, else the global {MaxCalls, WindowNs}): ErrRateLimited if it
//     already has MaxCalls accepted writes in (now-WindowNs, now].
//   - An accepted write counts toward the degraded period (if Degraded), the
//     address's window and the congestion window, whitelisted or not. A
//     refused write counts nowhere.
//   - A limit lowered below what an address already has in its window
//     simply refuses until the window has room; a change of the global
//     MaxCalls keeps every address's history. Setting or clearing an
//     override (ClearIssuerLimit with none set too) starts that address's
//     window afresh. SetIssuerLimit with a 0 field returns an error naming
//     it and changes nothing.
//   - AdjustCongestion(now): n = accepted writes in (now-Congestion.WindowNs,
//     now]; the level is Low if n < LowBelow, High if n > HighAbove, else
//     NormalLoad. Only if the level changed: a change TO High does max -=
//     max*ReduceBps/10000, a change TO Low does max += max*IncreaseBps/10000
//     (products in 64 bits, rounded down), then max is clamped into
//     [MinMaxCalls, MaxMaxCalls]. Overrides never move.
//   - New starts Normal, at NormalLoad, with the global MaxCalls =
//     Rate.MaxCalls (not clamped until its first change). It refuses a bad
//     config with an error whose text holds the field's dotted path (e.g.
//     Congestion.WindowNs): Rate.MaxCalls, Rate.WindowNs or
//     Congestion.WindowNs of 0, ReduceBps > 10000, MinMaxCalls of 0 or above
//     MaxMaxCalls, LowBelow > HighAbove, AutoRecover with TTLNs 0.
//
// # Traps
//
//   - Recover first. A period whose RecoverAtNs has come is over before the
//     call looks at the state: at RecoverAtNs itself, not one ns later; in
//     Status too.
//   - Pause is for everyone: the whitelist skips the rate limit and nothing
//     else, not the pause, not the degraded cap; and a whitelisted address's
//     writes still count (in its window, for congestion, for the period).
//   - Overrides win over the global limit both ways, higher or lower, and
//     congestion never moves them.
//   - The window (now-WindowNs, now]: a write exactly WindowNs old has left
//     it. Early times: now-WindowNs must not wrap below 0. Refused writes
//     are not in it.
//   - Congestion is not a gate: a High level refuses nothing by itself.
//   - Steps: only on a level change (High then High again moves nothing;
//     High straight to Low raises), rounded down, clamped; MaxCalls near
//     2^32 with large basis points does not fit in 32 bits before the clamp.
//   - A new degraded period counts from 0, even Degraded to Degraded.
//   - Precedence: when several throttles would refuse, the first one's
//     error (ErrPaused, then ErrDegradedLimit, then ErrRateLimited).
//   - Clocks that step back.
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise throttle
//
// Each failed check names the mistake it found (only when the grader's
// model of that mistake gives every answer yours gave) and the shortest
// sequence of calls that shows it; one mistake costs its own points once.
//
// There is also a speed budget: Write, among 1,000 addresses, must take at
// most 100 ns per call and allocate nothing in steady state. It is timed on
// traffic drawn afresh for every run, and your decisions are checked on
// each run's traffic. Allocations are counted on a run of their own, the
// same on every machine: 20,000 calls after a warm-up of 65,536, as a rate:
// at most one per 100 calls. Amortised growth is allowed (a map or a slice
// that grows as the traffic needs, a log grown a chunk at a time); an
// allocation on every call, or every few calls, is not.
package throttle
