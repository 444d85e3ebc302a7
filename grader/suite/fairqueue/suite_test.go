package fairqueue

import (
	"slices"
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/check/checktest"
	"ratelab/grader/harness"
	"ratelab/grader/report"
)

var domains = map[string]domain{
	"deficit-reset": deficitDomain,
	"large-cost":    largeDomain,
	"round-order":   roundDomain,
	"turn":          turnDomain,
	"fifo":          fifoDomain,
	"exactness":     exactDomain,
}

func TestDomainsGenerateValidScripts(t *testing.T) {
	checktest.Domains[setup, op](t, domains, func(d domain) float64 { return float64(d.maxOps) / 4 }, nil)
}

func TestModelAgreesWithReference(t *testing.T) {
	checktest.ModelAgrees(t, domains, func(s script) check.Trace { return replay(refNew, s) })
}

func TestEveryPropertyHasADomain(t *testing.T) {
	checktest.EveryPropertyHasADomain(t, Suite(nil), domains)
}

// TestReferencePassesEveryCheck runs every check but the benchmark (tests
// never judge wall time) on the reference, for three seeds.
func TestReferencePassesEveryCheck(t *testing.T) {
	s := Suite(harness.Local(API(refNew, refNew)))
	s.Checks = slices.DeleteFunc(s.Checks, func(c check.Check) bool { return c.Kind == report.Benchmark })
	checktest.ReferencePasses(t, s, 3, 30)
}

// TestBenchmarkDecidesLikeTheReference checks that the benchmark's loop on
// the reference gives the digest the grader expects, and is not trivial.
func TestBenchmarkDecidesLikeTheReference(t *testing.T) {
	if a, b := loop(refNew, 5000), loop(refNew, 5000); a != b || a == check.DigestStart {
		t.Errorf("loop digests %d and %d: want equal and not empty", a, b)
	}
}
