// Package throttle is the grader's suite for week 5's gate: an operator's
// circuit breaker, a per-address sliding-window rate limit with overrides
// and a whitelist, and congestion throttling that moves the global limit.
//
// Every property replays a generated script of calls (Write, SetState,
// SetIssuerLimit, ClearIssuerLimit, SetWhitelisted, AdjustCongestion,
// Status) against the learner's gate and against model, a plain
// restatement of the contract, comparing every answer. Each check draws
// its scripts from the corner where one mistake shows (calls exactly at
// RecoverAtNs, whitelisted addresses while Paused and Degraded, overrides
// beside congestion changes, level changes straight from High to Low,
// limits near 2^32 with large basis points, limits lowered below what an
// address has in its window and raised again, several refusals at once,
// Status past the recovery time, clocks stepping back). Every failure
// counts, whichever check finds it: the suite's error models (mistakes.go:
// the model with one rule broken, as learners break it) name the mistake
// whose answers are exactly the learner's, and the exercise is charged
// once per pitfall of the mistakes it shows (see check.Suite.Judge).
//
// Errors travel as their text (see grader/wire), so errors.Is cannot be
// applied in the grader: the child's adapter classifies Write's error with
// errors.Is against the package's own ErrPaused, ErrDegradedLimit and
// ErrRateLimited (Classify) before it travels.
package throttle

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
