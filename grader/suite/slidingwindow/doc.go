// Package slidingwindow is the grader's suite for the week 2 bucketed
// sliding window.
//
// Every property replays a generated script of Count and TryAcquire calls
// against the learner's window and against model, a map from bucket id to
// the calls accepted in it that sums the ids of the window on every call: too
// slow for a limiter, plainly right. Calls are generated in buckets rather
// than nanoseconds (so many buckets on, at the first or last nanosecond of
// the bucket) and each check keeps to the corner of the input space where
// one classic mistake shows: refusals that count, ring slots that keep an
// old bucket's count, a window one bucket too wide or too narrow, clocks
// stepping back, bucket ids next to MaxUint64. A check's rules also keep
// its scripts away from the other checks' corners, while shrinking too.
//
// A failure is diagnosed by the suite's error models (mistakes.go): the
// model with one rule of the contract broken at a time. A mistake is named
// only when its model gives every answer the learner's code gave, and the
// exercise is charged once per pitfall of the mistakes named (see
// check.Suite.Judge).
package slidingwindow

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
