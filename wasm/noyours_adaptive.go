//go:build noyours && (!oneweek || week4)

package main

import "ratelab/lab/adaptive"

// yoursAdaptive returns a week 4 Impl without constructors: this build was
// made with -tags noyours because the learner's exercises packages do not
// compile.
func yoursAdaptive() adaptive.Impl {
	return adaptive.Impl{Name: "Yours", Missing: "your code does not build"}
}
