// Package hierarchy adapts the hierarchy exercise to the grading child: see package
// ratelab/grader/adapter.
package hierarchy

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/hierarchy"
	impl "ratelab/solutions/hierarchy"
)

// name is the name the child serves the exercise by.
const name = "hierarchy"

func init() {
	harness.Register(name, suite.API(
		func(nowNs uint64) suite.Tree { return impl.New(nowNs) },
	))
}
