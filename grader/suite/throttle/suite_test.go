package throttle

import (
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/check/checktest"
	"ratelab/grader/harness"
)

var domains = map[string]domain{
	"recover-first":         recoverDomain,
	"pause-all":             pauseDomain,
	"whitelist-scope":       whitelistDomain,
	"override":              overrideDomain,
	"rate-window":           rateDomain,
	"congestion-not-a-gate": gateDomain,
	"congestion-step":       stepDomain,
	"degraded-period":       degradedDomain,
	"precedence":            precedenceDomain,
	"status":                statusDomain,
	"backward-time":         backwardDomain,
	"exactness":             exactDomain,
}

func TestDomainsGenerateValidScripts(t *testing.T) {
	checktest.Domains[setup, op](t, domains, func(d domain) float64 { return float64(d.maxOps) / 3 }, nil)
}

func TestModelAgreesWithReference(t *testing.T) {
	checktest.ModelAgrees(t, domains, func(s script) check.Trace { return replay(refImpl, s) })
}

func TestEveryPropertyHasADomain(t *testing.T) {
	checktest.EveryPropertyHasADomain(t, Suite(nil), domains)
}

// TestReferencePassesEveryCheck grades the reference through the same
// encoding as the child, for several seeds.
func TestReferencePassesEveryCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every check three times")
	}
	checktest.ReferencePasses(t, Suite(harness.Local(API(refImpl, refImpl))), 3, 40)
}
