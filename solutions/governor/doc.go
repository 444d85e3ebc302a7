// Package governor is the reference adaptive backpressure governor for week 4
// of ratelab.
//
// A load generator that hammers a saturated target learns little: the
// target rejects, the client retries, and the request-level success rate
// still looks fine. The honest signal is the attempt-failure fraction of
// each window, failed attempts over resolved attempts. The governor reads
// that fraction once per window and moves one number, the offer (a
// concurrency or a rate), the way TCP moves its congestion window:
//
//   - Slow start. The offer opens at Config.Start, by default the floor,
//     and doubles after each clean window until the first sign of
//     congestion, never past the ceiling. The authored concurrency or rate
//     is the ceiling, not the opening offer: a fragile target is never
//     flooded, a robust one reaches full load in a handful of windows.
//   - Back-off in proportion to severity. A window over the high mark
//     multiplies the offer by 1-frac clamped to [0.25, 0.9], never below
//     the floor, and remembers the offer that failed (LastBad).
//   - A dead band. Between the low and the high mark nothing moves.
//   - Congestion memory. With a remembered failure point, a clean window
//     climbs x1.5 but only up to 75% of it, then probes additively, by
//     max(1, 2% of LastBad) per window, instead of marching multiplicatively
//     back into the same wall. MemoryClearStreak consecutive clean windows
//     at or above the remembered point clear the memory and restore the
//     doubling climb.
//
// Decide and MemoryClearStep are the pure rules; Governor applies them to
// the cumulative counters a drain loop sees on each tick, taking window
// deltas, never a lifetime ratio.
//
// The package never reads a clock and does no I/O: the caller owns the
// tick and whatever it does with the offer.
package governor
