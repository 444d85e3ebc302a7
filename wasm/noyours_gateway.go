//go:build noyours && (!oneweek || week3)

package main

import "ratelab/lab/gateway"

// yoursGateway returns a gateway Impl without a constructor: this build was
// made with -tags noyours because the learner's exercises packages do not
// compile.
func yoursGateway() gateway.Impl {
	return gateway.Impl{Name: "Yours", Missing: "your code does not build"}
}
