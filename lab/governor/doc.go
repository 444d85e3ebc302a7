// Package governor runs the week 4 governor against a target, window
// by window, in virtual time: the drain loop of an adaptive load
// generator.
//
// Each window lasts WindowNs and holds RoundsPerWindow rounds. In every
// round the client (package retry) sends as many concurrent attempts as the
// committed offer, rounded down, retries first; the target (package target)
// says how many fail. At the end of the window the drain loop hands the
// client's cumulative attempt counters to the governor's Observe, which
// takes the window from their deltas, and applies the offer it returns to
// the next window. Every window is kept as a Window: the offer, the
// target's capacity, both planes of counts (attempt failures, request ok),
// and the Decision with its one-line Reason. A window whose decision moved
// the offer or the memory is a line of the movement log.
//
// The governor comes from an adaptive.Impl. Code other than the reference
// may panic: the run then stops, keeps what it had, and says why
// (ImplStatus). Config.Fixed runs without a governor at all, offering the
// ceiling every window, to show what a plain retrying client does to a
// saturated target.
//
// Nothing here reads a clock or does I/O. The same Config and Impl give the
// same windows, however the run is cut into Steps.
package governor
