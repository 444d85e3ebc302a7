package breaker

import (
	"testing"

	"ratelab/grader/check/checktest"
)

// TestSuite checks the generators and the model (see
// checktest.Generators), and grades the reference through the same
// encoding as the child, for three seeds.
func TestSuite(t *testing.T) {
	checktest.Generators(t, Suite(nil), domains, func(d domain) float64 { return float64(d.maxOps) / 3 }, replay, refNew)
	checktest.ReferencePassesLong(t, Suite, API(refNew, refNew), 3, points)
}
