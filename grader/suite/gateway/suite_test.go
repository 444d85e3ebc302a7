package gateway

import (
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/check/checktest"
	"ratelab/grader/harness"
)

// TestGenerators checks that every domain's generator keeps to its own
// rules and reaches the traps, that the model agrees with the reference,
// and that every property has a domain.
func TestGenerators(t *testing.T) {
	checktest.Generators(t, Suite(nil), domains, func(d domain) float64 { return float64(d.maxOps) / 3 }, func(s script) check.Trace { return replay(refImpl, s) })
}

// TestReferencePassesEveryCheck grades the reference through the same
// encoding as the child, for several seeds.
func TestReferencePassesEveryCheck(t *testing.T) {
	checktest.ReferencePassesLong(t, Suite(harness.Local(API(refImpl, refImpl))), 3, 41)
}
