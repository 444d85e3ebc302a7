// Package tokenbucket is the grader's suite for the week 1 token bucket.
//
// Every property replays a generated script of calls against the learner's
// bucket and against model, a deliberately plain restatement of the
// contract in math/big, comparing every return value. Each check draws its
// scripts from the corner of the input space where one classic mistake
// shows (sub-token intervals, huge values, clocks stepping back, requests
// larger than what is available), so a failure names that mistake.
package tokenbucket

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
