//go:build noyours && (!oneweek || week3)

package main

import "ratelab/lab/fairqueue"

// yoursFairqueue returns a week 3 DRR without a constructor: this build was
// made with -tags noyours because the learner's exercises packages do not
// compile.
func yoursFairqueue() fairqueue.Impl {
	return fairqueue.Impl{Name: "Yours", Missing: "your code does not build"}
}
