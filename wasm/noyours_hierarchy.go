//go:build noyours && (!oneweek || week3)

package main

import "ratelab/lab/hierarchy"

// yoursHierarchy returns a hierarchy Impl without a constructor: this build
// was made with -tags noyours because the learner's exercises packages do
// not compile.
func yoursHierarchy() hierarchy.Impl {
	return hierarchy.Impl{Name: "Yours", Missing: "your code does not build"}
}
