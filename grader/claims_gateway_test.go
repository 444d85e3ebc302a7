package grader_test

import "ratelab/grader/report"

var gatewayClaims = []claim{
	{"gateway", "Your error was", func(ce *report.Counterexample, _ string) bool {
		last := ce.Steps[len(ce.Steps)-1]
		return last.Got == "an error" && last.Want == "nil"
	}},
}
