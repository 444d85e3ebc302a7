// Package due is what a class's due dates mean: which due date holds for a
// learner's exercise (Schedule.For), whether a submission made at a time
// was on time, late and by how much, or is refused (Deadline.Judge), the
// score that then counts (Mark.Counted), and the words the pages and the
// command say them in. It also changes them (Set, Clear, Extend, Unextend)
// so that every change is recorded with the submissions whose on-time
// mark it changed: a due date moved later re-marks nothing silently.
//
// The rules, decided here once:
//   - An exercise's own due date overrides its week's. A learner's
//     extension of the exercise overrides their extension of its week; an
//     extension only ever moves a due date later, and moves a penalty's
//     cut-off by as much, so the late window keeps its length.
//   - A submission is on time when it was stored (by the server's clock)
//     at or before the due date, to the nanosecond: "23:59" means 23:59:00;
//     say 23:59:59 for the end of that minute.
//   - Late, by policy: "accept" counts it whole, marked late; "penalty"
//     takes PenaltyPct off per day late or part of one (1 minute late is 1
//     day; a day is 24 hours, whatever the clocks do), down to 0, and
//     refuses it after the cut-off; "refuse" refuses it. A refused upload is never stored; one stored before the policy
//     made it refused counts nothing.
//   - The score that counts is the best, over every graded submission of
//     the exercise, of its score times its penalty's factor, rounded to
//     2 decimals (half away from zero); a tie goes to the on-time one.
//
// On-time marks are derived, not stored: from a submission's time (stored
// at submit, by the server's clock) and the due dates in force. A change
// of the due dates records the marks it changed (store.DueChange), which
// the dashboard lists.
package due
