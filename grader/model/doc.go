// Package model holds the exercises' contracts as plain models: the
// oracles the suites grade against, which the browser's replay of a
// counterexample shows too (lab/replay), each written once. They are
// restatements of the contract, written for clarity (with math/big where
// the contract's arithmetic is exact), never for speed, and independent of
// the reference solutions. Where a model takes or returns one of the
// exercise's enums, it is generic over the enum's type, numbered as the
// contract numbers it, so that each caller uses it in its own types.
//
// The GCRA has no model of its own: it must decide as Bucket(burst, rate)
// taking one token, which its suite grades it against; the replay keeps
// its own TAT form of it, to show the lesson's TAT and τ.
//
// The throttle's model carries its suite's mistakes: each is a switch, by
// the mistake's name, beside the rule it breaks (Throttle.Mistake), since
// the difference between the two is what its suite's lesson shows. The
// other suites build their mistakes on their model from outside it.
package model
