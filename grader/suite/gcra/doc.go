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
// MaxUint64), and keeps to it while shrinking, so a failure names that
// mistake and no other.
package gcra

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
