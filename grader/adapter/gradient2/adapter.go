// Package gradient2 adapts the gradient2 exercise to the grading child: see package
// ratelab/grader/adapter.
package gradient2

import (
	"ratelab/grader/harness"
	suite "ratelab/grader/suite/gradient2"
	impl "ratelab/solutions/gradient2"
)

// name is the name the child serves the exercise by.
const name = "gradient2"

func init() {
	harness.Register(name, suite.API(func(c suite.Config) suite.Limit {
		return impl.New(impl.Config{
			InitialLimit: c.InitialLimit, MinLimit: c.MinLimit, MaxLimit: c.MaxLimit,
			Smoothing: c.Smoothing, RTTTolerance: c.RTTTolerance, LongWindow: c.LongWindow,
			QueueSize: c.QueueSize,
		})
	}))
}
