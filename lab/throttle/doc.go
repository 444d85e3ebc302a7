// Package throttle is the week 5 "operator's console" simulation: one
// throttle gate (the throttle exercise: the reference, or the learner's)
// in front of four addresses' writes, with an operator who pauses,
// degrades and restores it on a script (and on demand), and a keeper that
// runs AdjustCongestion on a schedule.
//
// Every write is recorded with what decided it: accepted, or refused by
// the pause, the degraded cap or the rate limit (or an error that is none
// of the three, which the contract does not allow). Beside the verdict the
// run records the gate's own Status just before the call, the limit in
// force for the address and how many of its accepted writes were in its
// window then, as this package counts them, so that a reader can check
// every refusal against the rule that made it. The run also looks at
// Status one nanosecond before and at the instant a pending automatic
// recovery is due, so that the end of a Degraded or Paused period is seen
// exactly where it happens.
//
// Everything runs in virtual time, deterministically for a seed (the
// seed jitters the addresses' intervals), without I/O. It is not a
// judge: a learner's gate that answers wrongly is shown as it answers.
package throttle
