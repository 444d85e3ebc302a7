//go:build noyours && (!oneweek || week5)

package main

import "ratelab/lab/breaker"

// yoursBreaker returns a breaker Impl without a constructor: this build was
// made with -tags noyours because the learner's exercises packages do not
// compile.
func yoursBreaker() breaker.Impl {
	return breaker.Impl{Name: "Yours", Missing: "your code does not build"}
}
