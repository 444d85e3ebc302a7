// Package check is the grader's toolkit for writing checks: a Check names
// the one pitfall it exists to catch, and runs as a property (generated
// scripts of calls, replayed beside a model and shrunk with gopter), a fixed
// case, or a benchmark against a budget.
//
// It knows nothing about any particular exercise; the suites in
// grader/suite/... use it. A suite writes only what is its own: its checks'
// words (Prose, in its embedded checks.json), the code that runs each
// (declared as its Parts, assembled by name with NewSuite), its domains (each embedding the Aim
// of its check) and its model, replay, shrinkers and traps. Checks run in the grader's own process: the
// learner's code answers calls through a Remote (another process, see
// package wire), and every answer is judged here. A panic in the learner's
// code reaches a check as a panic of Remote.Call, which Call turns into a
// value.
package check
