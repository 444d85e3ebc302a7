// Package fairqueue is the grader's suite for the week 3 deficit round
// robin queue.
//
// Every property replays a generated script of Push, Pop and Len calls
// against the learner's queue and against model, a plain restatement of
// the contract, comparing every answer. Each check draws its scripts from
// the corner where one mistake shows (sessions that empty and come back,
// costs above the quantum, sessions joining mid-turn, long turns). Every
// failure counts wherever it is found: the grader names the mistakes
// (mistakes.go: the model with one rule broken) whose answers are the
// learner's, and charges each once, under its own pitfall.
package fairqueue

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
