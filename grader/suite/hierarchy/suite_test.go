package hierarchy

import (
	"testing"

	"ratelab/grader/check/checktest"
)

// TestSuite runs the tests every suite gets (see checktest.Run), and
// grades the reference through the same encoding as the child, for three
// seeds.
func TestSuite(t *testing.T) {
	checktest.Run(t, Checks, func(d domain) float64 { return float64(d.maxOps) / 4 }, replay)
	checktest.ReferencePasses(t, Checks.Suite, API(reference), 3, 40)
}

// TestOverflowNeutraliser checks that the overflow trap's neutraliser
// scales huge scripts into ones no overflow mistake answers wrong, while
// the other mistakes still show on them.
func TestOverflowNeutraliser(t *testing.T) {
	checktest.Neutralises(t, Checks, "overflow", "overflow", 0.8)
}
