// Package gcra is the grader's suite for the week 1 GCRA.
//
// The contract defines a GCRA by what it decides, not by how: New(rate,
// burst, now) must grant exactly the calls that a token bucket of capacity
// burst refilled at rate tokens per second, starting full at now, would
// grant with n = 1. So every property replays a generated script against
// the learner's limiter and against model, that token bucket restated in
// math/big, and compares every decision. Each check draws its scripts from
// the corner of the input space where one classic GCRA mistake shows
// (rates that do not divide a second, clocks stepping back, values next to
// MaxUint64), and keeps to it while shrinking.
//
// A failure is diagnosed by the suite's error models (mistakes.go): the
// GCRA restated as a schedule in ticks, with one rule of the contract
// broken at a time. A mistake is named only when its model gives every
// answer the learner's code gave, and the exercise is charged once per
// pitfall of the mistakes named (see check.Suite.Judge).
package gcra

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
