// Package gcra adapts the gcra exercise to the grading child: see package
// ratelab/grader/adapter.
package gcra

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/gcra"
	impl "ratelab/solutions/gcra"
)

// name is the name the child serves the exercise by.
const name = "gcra"

func init() {
	harness.Register(name, suite.API(
		func(ratePerSec, burst, nowNs uint64) suite.Limiter { return impl.New(ratePerSec, burst, nowNs) },
	))
}
