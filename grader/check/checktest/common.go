package checktest

import (
	"fmt"
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// Generators runs, as subtests of t, the tests of a suite's generators
// and model: DomainsGenerateValidScripts (Domains with minOps),
// ModelAgreesWithReference (ModelAgrees, replay on the reference ref) and
// EveryPropertyHasADomain (s is the suite over no implementation).
func Generators[I, S, O any, D check.Domain[S, O]](t *testing.T, s check.Suite, domains map[string]D, minOps func(D) float64, replay func(I, check.Script[S, O]) check.Trace, ref I) {
	t.Run("DomainsGenerateValidScripts", func(t *testing.T) { Domains(t, domains, minOps, nil) })
	t.Run("ModelAgreesWithReference", func(t *testing.T) {
		ModelAgrees(t, domains, func(s check.Script[S, O]) check.Trace { return replay(ref, s) })
	})
	t.Run("EveryPropertyHasADomain", func(t *testing.T) { EveryPropertyHasADomain(t, s, domains) })
}

// ReferencePassesLong is ReferencePasses, skipped in -short mode: it runs
// every check seeds times.
func ReferencePassesLong(t *testing.T, suite func(check.Remote) check.Suite, api harness.API, seeds int64, points float64) {
	t.Helper()
	t.Run("ReferencePassesEveryCheck", func(t *testing.T) {
		if testing.Short() {
			t.Skip(fmt.Sprintf("runs every check %d times", seeds))
		}
		referencePasses(t, suite(harness.Local(api)), seeds, points)
	})
}

// LoopDecides checks that a benchmark's loop on the reference, loop, gives
// the same digest twice, and one that is not the digest of no decisions.
func LoopDecides(t *testing.T, loop func() uint64) {
	t.Helper()
	if a, b := loop(), loop(); a != b || a == check.DigestStart {
		t.Errorf("loop digests %d and %d: want equal and not empty", a, b)
	}
}
