// Package adapter holds the grading child's adapters, one package per
// exercise, named by its id (adapter/tokenbucket). An adapter registers an
// exercise's implementation with the harness through the suite's typed
// API (suite.API): typed closures over the package imported as impl, so
// that an implementation whose API differs from the contract does not
// compile, and the compiler says where.
//
// Each adapter is a real package, compiled here against the reference
// (ratelab/solutions/<id>), so that gofmt, vet and gopls check it. The
// grader embeds the files and writes a copy of each into the child
// program's build overlay with three things rewritten: the package
// clause, the path of the impl import (the learner's package, or a
// variant's) and the value of the constant name, the name the child serves
// the exercise by. An adapter must keep those: an import named impl and a
// constant named name.
//
// The adapter is also the one place the exercise's types are converted to
// the suite's: make generate copies it into the suite's package as the
// reference's adapter (grader/suite/<id>/reference_gen.go, see package
// ratelab/internal/refgen), which the suite runs in the grader's process
// and the child beside the learner's code in the benchmark. So its init
// must be the one statement harness.Register(name, suite.API(…)).
package adapter
