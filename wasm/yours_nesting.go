//go:build !noyours

package main

import (
	"ratelab/exercises/hierarchy"
	"ratelab/lab/nesting"
)

// yoursHierarchy returns the hierarchy Impl built from the learner's
// exercises/hierarchy. Its code may panic (a stub panics with "not
// implemented"); the run's tree side then stops and says why.
func yoursHierarchy() nesting.Impl {
	return nesting.Impl{Name: "Yours", New: func(nowNs uint64) nesting.Tree { return hierarchy.New(nowNs) }}
}
