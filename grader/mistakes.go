package grader

import "ratelab/grader/check"

// Mistakes returns the error models of exercise id's suite, by name: the
// mistakes its reports can name. None for an exercise it does not know.
func Mistakes(id string) []check.Named { return listed(id).Mistakes }
