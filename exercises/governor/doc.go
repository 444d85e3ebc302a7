// Package governor is the first exercise of week 4: build an adaptive
// backpressure governor, the loop that finds how much load a target can
// take by watching how many attempts fail.
//
// Every function here panics with "not implemented" until you write it.
// Replace the panics, add the fields you need, split the code into as many
// files as you like: only the exported API is graded. The constants and
// types (MemoryClearStreak, Action and its values, Config, Decision) are
// part of that API: keep them as they are.
//
// # What to build
//
// Once per window, a drain loop hands the governor the cumulative counts of
// failed and resolved attempts. The governor works out the window's
// attempt-failure fraction, frac = failed/resolved over the window, and
// moves the offer (a concurrency or a rate) like TCP moves its congestion
// window: slow start, severity-proportional back-off, and a memory of where
// it last hit the wall. Decide and MemoryClearStep are the pure rules;
// Governor applies them window after window.
//
// # The exact rules
//
// Decide(cfg, frac, current, lastBad), where current is the committed offer
// and lastBad the congestion memory (0: none), returns:
//
//   - frac > High (breach): BackOff, Offer = max(Floor,
//     current*clamp(1-frac, 0.25, 0.9)), LastBad = current.
//   - Low < frac <= High (dead band): Hold; Offer = current, LastBad =
//     lastBad.
//   - frac <= Low (clean) and lastBad == 0: Double, Offer =
//     min(Ceiling, 2*current).
//   - clean and current < 0.75*lastBad: Recover, Offer =
//     min(1.5*current, 0.75*lastBad).
//   - clean otherwise: Probe, Offer = min(Ceiling, current +
//     max(1, 0.02*lastBad)).
//
// A clean window never changes LastBad. Reason is one line naming the
// signal and the move, for a log ("frac 0.31 > high 0.05: back off x0.69
// to 69"); it is not graded, but write it: a governor that moves silently
// is one nobody trusts.
//
// MemoryClearStep(streak, evidence) returns (0, false) when evidence is
// false; otherwise the streak grows by one, and when it reaches
// MemoryClearStreak it returns (0, true).
//
// New(cfg) starts with the offer cfg.Start (cfg.Floor if Start is 0)
// clamped into [Floor, Ceiling], no memory, and counter baselines of 0.
// Observe(cumFailures, cumResolved):
//
//   - If either counter is below its value at the previous call, the
//     counters were reset: they become the new baseline, and the window
//     holds (Action Hold, offer and memory unchanged) and resets the streak.
//   - Otherwise the window is the difference from the previous call. If it
//     has no resolved attempts, it holds and resets the streak the same way.
//   - Otherwise Observe calls Decide with the window's frac and the
//     committed offer and memory, and feeds MemoryClearStep with
//     frac <= Low && lastBad > 0 && current >= lastBad (current and lastBad
//     as they were before this window). When it clears, the memory becomes
//     0, in the returned Decision too.
//   - The returned Decision is committed: Offer() and LastBad() return its
//     Offer and LastBad until the next Observe.
//
// The grader compares offers with a relative tolerance of 1e-9, and only
// uses configurations with 0 < Floor <= Ceiling and 0 <= Low <= High; what
// New does with others is up to you (the reference panics, naming the
// field).
//
// # Traps
//
//   - Lifetime ratios. cumFailures/cumResolved is the failure rate since
//     the start. After an hour of clean traffic, what does one bad minute
//     do to it? The window is the difference since the previous tick.
//   - Empty windows and resets. What is frac when nothing resolved in the
//     window? What is cumFailures - previous when the counters restarted
//     from 0? (uint64 subtraction does not go negative.)
//   - Marching back into the wall. After a back-off, doubling again takes
//     the offer straight back to where it failed. Below 75% of LastBad the
//     climb is x1.5 (never past 75%); above it, one small additive step per
//     window.
//   - One lucky window. A single clean window at or above LastBad is not
//     evidence that the target got healthier: only MemoryClearStreak in a
//     row are, and every other window (a breach, a hold, a clean window
//     below LastBad, an empty one) starts the count again. Which offer do
//     you compare with LastBad: the one the window ran at, or the new one?
//   - The floor and the ceiling. Every move that can leave [Floor, Ceiling]
//     must stop at its edge; which moves can?
//   - The boundaries. frac == High is not a breach; frac == Low is clean.
//
// # Grading
//
// From the repository root, run
//
//	make grade
//
// or, for this exercise only,
//
//	go run ./cmd/labserver grade --exercise governor
//
// Each failed check names the mistake it found (only when the grader's
// model of that mistake gives every answer yours gave) and the shortest
// sequence of calls that shows it; one mistake costs its own points once.
package governor
