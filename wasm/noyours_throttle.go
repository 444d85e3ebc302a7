//go:build noyours && (!oneweek || week5)

package main

import "ratelab/lab/throttle"

// yoursThrottle returns a throttle Impl without a constructor: this build
// was made with -tags noyours because the learner's exercises packages do
// not compile.
func yoursThrottle() throttle.Impl {
	return throttle.Impl{Name: "Yours", Missing: "your code does not build"}
}
