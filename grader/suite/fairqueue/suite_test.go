package fairqueue

import (
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/check/checktest"
	"ratelab/grader/harness"
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

func TestReferencePassesEveryCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every check, the benchmark too")
	}
	checktest.ReferencePasses(t, Suite(harness.Local(API(refNew, refNew))), 3, 35)
}
