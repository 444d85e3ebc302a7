// Package gateway is the grader's suite for the week 3 order-entry gateway.
//
// Every property replays a generated script of calls (Open, Admit, Reload)
// against the learner's gateway and against model, a plain restatement of
// the contract in math/big, comparing every answer. Each check draws its
// scripts from the corner where one mistake of the policy shows (cancels
// against a drained order budget, heartbeats inside a flood, refusals on
// the nanosecond before a token, floods crossing the silence and
// disconnect ages, reconnects, reloads in a flood, clocks stepping back,
// huge values), and its trap (trap.go) makes sure a failure it reports
// contains that mistake.
package gateway

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
