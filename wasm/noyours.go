//go:build noyours && (!oneweek || week1 || week2)

package main

import "ratelab/lab/limiters"

// yours returns an Impl without constructors: this build was made with
// -tags noyours because the learner's exercises packages do not compile.
func yours() limiters.Impl {
	return limiters.Impl{Name: "Yours", Missing: "your code does not build"}
}
