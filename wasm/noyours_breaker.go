//go:build noyours

package main

import "ratelab/lab/circuit"

// yoursBreaker returns a breaker Impl without a constructor: this build was
// made with -tags noyours because the learner's exercises packages do not
// compile.
func yoursBreaker() circuit.Impl {
	return circuit.Impl{Name: "Yours", Missing: "your code does not build"}
}
