//go:build !noyours && (!oneweek || week3)

package main

import (
	learner "ratelab/exercises/hierarchy"
	"ratelab/lab/hierarchy"
)

// yoursHierarchy returns the hierarchy Impl built from the learner's
// exercises/hierarchy. Its code may panic (a stub panics with "not
// implemented"); the run's tree side then stops and says why.
func yoursHierarchy() hierarchy.Impl {
	return hierarchy.Impl{Name: "Yours", New: func(nowNs uint64) hierarchy.Tree { return learner.New(nowNs) }}
}
