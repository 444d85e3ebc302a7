// Package hierarchy is the grader's suite for the week 3 tree of token
// buckets (firm, account, session).
//
// Every property replays a generated script of calls (the Adds that build
// the tree among them) against the learner's tree and against model, a
// plain restatement of the contract in math/big that refills every node
// eagerly whenever the clock moves, comparing every return value. Each
// check draws its scripts from the corner where one mistake shows
// (refused messages, siblings draining a parent, nodes off the path while
// time passes, steps back, sub-token intervals, huge values, bad ids).
// Every failure counts wherever it is found: the grader names the mistakes
// (mistakes.go: the tree with one rule broken) whose answers are the
// learner's, and charges each once, under its own pitfall.
package hierarchy

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
