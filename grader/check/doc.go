// Package check is the grader's toolkit for writing checks: a Check names
// the one pitfall it exists to catch, and runs as a property (generated
// scripts of calls, replayed beside a model and shrunk with gopter), a fixed
// case, or a benchmark against a budget.
//
// It knows nothing about any particular exercise; the suites in
// grader/suite/... use it. Everything here runs inside the grading child
// process, next to the learner's code, so it must survive whatever that code
// does: every call into it goes through Call, which turns a panic into a
// value.
package check
