package throttle

import (
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/check/checktest"
	"ratelab/grader/harness"
)

// TestSuite checks the generators and the model (see
// checktest.Generators), and grades the reference through the same
// encoding as the child, for three seeds.
func TestSuite(t *testing.T) {
	checktest.Generators(t, Suite(nil), domains, func(d domain) float64 { return float64(d.maxOps) / 3 }, func(s script) check.Trace { return replay(refImpl, s) })
	checktest.ReferencePassesLong(t, Suite(harness.Local(API(refImpl, refImpl))), 3, 40)
}
