// Package breaker is the grader's suite for the week 5 failure-driven
// circuit breaker.
//
// Every property replays a generated script of calls (Allow, Done, State)
// against the learner's breaker and against model, a plain restatement of
// the contract, comparing every answer. Tickets are the learner's own
// values: a script reports "the k-th ticket not yet reported, newest
// first", or a value the breaker never returned (0, 1, the last one + 1,
// the next free value if that one was returned). Each check draws its
// scripts from the corner where its rules show (the whole cycle Closed,
// Open, HalfOpen and Closed again in a few small steps, calls exactly at
// the end of an open period and open periods that end past MaxUint64,
// half-open periods with more callers than probes, late reports of an
// earlier generation and tickets never issued, clocks stepping back), and
// each script first draws which calls and reports it makes (swarm).
//
// A failure is diagnosed by the suite's error models (mistakes.go): the
// contract's breaker with one rule broken, named when it gives every
// answer the learner's code gave (see check.Mistake); explain.go describes
// a failing script in its own numbers.
package breaker

import _ "embed" // for checks.json

// prose is the words of the suite's checks (see check.Parts).
//
//go:embed checks.json
var prose []byte
