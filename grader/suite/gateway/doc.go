// Package gateway is the grader's suite for the week 3 order-entry gateway.
//
// Every property replays a generated script of calls (Open, Admit, Reload)
// against the learner's gateway and against model, a plain restatement of
// the contract in math/big, comparing every answer. Each check draws its
// scripts from the corner where a part of the policy shows (cancels
// against a drained order budget, heartbeats inside a flood, refusals on
// the nanosecond before a token, floods crossing the silence and
// disconnect ages, reconnects in any class, reloads of closed sessions
// and failed reloads, clocks stepping back after every kind of call, huge
// values). A failure is named by the error models of mistakes.go: the
// contract's gateway with one rule broken, whose answers on the script
// are exactly the learner's.
package gateway

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
