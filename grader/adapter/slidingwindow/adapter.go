// Package slidingwindow adapts the slidingwindow exercise to the grading child: see package
// ratelab/grader/adapter.
package slidingwindow

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/slidingwindow"
	impl "ratelab/solutions/slidingwindow"
)

// name is the name the child serves the exercise by.
const name = "slidingwindow"

func init() {
	harness.Register(name, suite.API(
		func(limit uint32, windowNs uint64, buckets int) suite.Window {
			return impl.New(limit, windowNs, buckets)
		},
	))
}
