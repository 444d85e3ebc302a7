package fairqueue

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
	checktest.Generators(t, Suite(nil), domains, func(d domain) float64 { return float64(d.maxOps) / 4 }, func(s script) check.Trace { return replay(refNew, s) })
}

// TestReferencePassesEveryCheck runs every check but the benchmark (tests
// never judge wall time) on the reference, for three seeds.
func TestReferencePassesEveryCheck(t *testing.T) {
	checktest.ReferencePasses(t, checktest.WithoutBenchmarks(Suite(harness.Local(API(refNew, refNew)))), 3, 30)
}

// TestBenchmarkDecidesLikeTheReference checks that the benchmark's loop on
// the reference gives the digest the grader expects, and is not trivial.
func TestBenchmarkDecidesLikeTheReference(t *testing.T) {
	checktest.LoopDecides(t, func() uint64 { return loop(refNew, 5000) })
}
