// Package tokenbucket adapts the tokenbucket exercise to the grading child: see package
// ratelab/grader/adapter.
package tokenbucket

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/tokenbucket"
	impl "ratelab/solutions/tokenbucket"
)

// name is the name the child serves the exercise by.
const name = "tokenbucket"

func init() {
	harness.Register(name, suite.API(
		func(capacity, ratePerSec, nowNs uint64) suite.Bucket { return impl.New(capacity, ratePerSec, nowNs) },
	))
}
