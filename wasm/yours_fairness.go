//go:build !noyours

package main

import (
	"ratelab/exercises/fairqueue"
	"ratelab/lab/fairness"
)

// yoursFairness returns the week 3 DRR built from the learner's
// exercises/fairqueue. Its code may panic (a stub panics with "not
// implemented"); the DRR lane then stops and says why.
func yoursFairness() fairness.Impl {
	return fairness.Impl{
		Name: "Yours",
		New:  func(quantum uint64) fairness.Scheduler { return fairqueue.New(quantum) },
	}
}
