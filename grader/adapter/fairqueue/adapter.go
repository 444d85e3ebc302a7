// Package fairqueue adapts the fairqueue exercise to the grading child: see package
// ratelab/grader/adapter.
package fairqueue

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/fairqueue"
	impl "ratelab/solutions/fairqueue"
)

// name is the name the child serves the exercise by.
const name = "fairqueue"

func init() {
	harness.Register(name, suite.API(
		func(quantum uint64) suite.Queue { return impl.New(quantum) },
	))
}
