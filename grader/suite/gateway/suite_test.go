package gateway

import (
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/check/checktest"
)

// TestSuite runs the tests every suite gets (see checktest.Run), and
// grades the reference through the same encoding as the child, for three
// seeds.
func TestSuite(t *testing.T) {
	checktest.Run(t, Checks, func(d domain) float64 { return float64(d.maxOps) / 3 }, replay)
	checktest.ReferencePassesLong(t, Checks.Suite, API(reference), 3, 41)
}

// TestErrorModelWithoutMistake: the error models' gateway with no mistake
// switched on is the contract's, on every domain's scripts, so that each
// mistake's model differs from the contract by its mistake alone.
func TestErrorModelWithoutMistake(t *testing.T) {
	checktest.ModelAgrees(t, Checks.Domains, func(s script) check.Trace { return replay(mistaken(""), s) })
}
