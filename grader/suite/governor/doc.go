// Package governor is the grader's suite for the week 4 adaptive
// backpressure governor.
//
// The pure rules (Decide) are checked call by call against decide, a plain
// restatement of the contract, each check drawing its calls from the
// corner of one rule: breaches above the floor, the dead band and its
// edges, clean windows with a memory below the ceiling, moves that hit the
// floor or the ceiling. The stateful part (Governor) is checked on
// generated sequences of ticks against model. Two of those checks look
// only at what their rule governs, judged against the learner's own
// offers, so that one wrong formula elsewhere does not fail them too:
// windowing (is each window read as clean, held or breached from its
// deltas, and does a window without evidence change nothing) and
// memory-clear (does the memory follow the breaches and the streaks).
// Slow-start and exactness compare whole decisions.
//
// Each script carries its check's judge (see setup), so that the error
// models of mistakes.go, the contract's governor with one rule broken
// each, are replayed exactly as the learner's code was: a failure is
// named after the mistake whose model gives every answer the learner's
// code gave, and charged to that mistake's pitfall, whichever check found
// it.
//
// Offers are compared with a relative tolerance of 1e-9. Scripts whose
// outcome hangs on a comparison closer than that (an offer a rounding
// error away from 75% of LastBad, or from LastBad) are outside every
// check's domain, so two correct implementations that round differently
// grade alike.
package governor

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
