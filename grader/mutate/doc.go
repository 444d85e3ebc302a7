// Package mutate measures the grader's suites by mutation testing: it
// makes small, deliberate bugs in a reference solution (mutants, one
// change each: a < for a <=, a + for a -, a statement left out, …),
// grades each with the real grader, and counts those the grade catches.
//
// A mutant is killed when its grade is below full marks (behaviour only:
// the benchmarks are not run), stillborn when it does not compile (counted
// apart: the compiler caught it, not the suite), and lived otherwise. A
// mutant that lives is either a gap in the suite's generators, or
// equivalent: it behaves as the reference does, whatever the calls. The
// committed file equivalent.txt lists the equivalent ones with the reason,
// and Run checks every mutant that lived by hunting: a program built from
// the mutant replays at least a million scripts drawn by the suite's own
// properties (package hunt) in one process, and any script on which the
// mutant differs from the suite's model kills it there; a listed mutant
// that a script kills is reported as wrongly listed.
//
// The operators (see Operator) are those of go-gremlins/gremlins v0.6.0,
// applied only where the result type-checks, plus the removal of a
// statement. The engine is this package's own: it works on go/ast and
// go/types, edits the source text at one place, and lists the mutants of a
// package in a fixed order (file, then position, then operator).
//
// labserver mutate (make mutate) is its command. It is a tool for the
// course's authors, not part of grading: nothing in the grader imports it.
package mutate
