//go:build !noyours && (!oneweek || week3)

package main

import (
	learner "ratelab/exercises/fairqueue"
	"ratelab/lab/fairqueue"
)

// yoursFairqueue returns the week 3 DRR built from the learner's
// exercises/fairqueue. Its code may panic (a stub panics with "not
// implemented"); the DRR lane then stops and says why.
func yoursFairqueue() fairqueue.Impl {
	return fairqueue.Impl{
		Name: "Yours",
		New:  func(quantum uint64) fairqueue.Scheduler { return learner.New(quantum) },
	}
}
