// Package gradient2 is the grader's suite for the week 4 gradient
// concurrency limit (after Netflix's Gradient2Limit).
//
// Every property replays a generated stream of samples against the
// learner's limit and against model, the contract's formula restated with
// every intermediate value in view. The learner's limit only shows
// int(limit), so the model keeps the exact float and accepts either
// rounding when it sits within a relative 1e-9 of an integer.
//
// Each check draws its streams from the corner of one rule, and keeps the
// other rules out of sight where it can, so that its counterexamples are
// about that rule: outside the smoothing check (and some of the floor
// check's streams) the smoothing is 1 (the new limit is taken whole),
// outside the clamp checks the gradient stays in [0.5, 1] and the limit
// inside [MinLimit, MaxLimit], outside the decay and app-limited checks no
// sample decays or is app-limited. A failure is named after the mistake
// whose model (mistakes.go: the contract's limit with one rule broken)
// gives every answer the learner's code gave, and charged to that
// mistake's pitfall, whichever check found it. Streams whose outcome hangs
// on a comparison closer than 1e-9 (long/short next to 2, inflight next to
// limit/2, a limit next to an integer fed to a QueueSize function) are
// outside every domain, so two correct implementations that round
// differently grade alike.
package gradient2

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
