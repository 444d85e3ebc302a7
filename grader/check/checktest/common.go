package checktest

import (
	"fmt"
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// Run runs, as subtests of t, the tests every suite's parts p get: those
// of its generators and model (Generators, with minOps and replay), that
// each of its Fixed checks passes on the reference p.Ref
// (FixedChecksPassOnReference), those of its error models (Mistakes),
// and, if it has a budget check, that its
// benchmark's loop on the reference decides (BenchmarkLoopDecides, with
// 5000 iterations) and that its Iteration is worded for the stub's docs.
func Run[I, S, O any, D check.Domain[S, O]](t *testing.T, p check.Parts[I, D, S, O], minOps func(D) float64, replay func(I, check.Script[S, O]) check.Trace) {
	t.Helper()
	Generators(t, p, minOps, replay)
	Mistakes(t, p)
	t.Run("FixedChecksPassOnReference", func(t *testing.T) {
		for name, run := range p.Fixed {
			Passes(t, name, run(p.Ref))
		}
	})
	if p.BudgetNs > 0 {
		t.Run("BenchmarkLoopDecides", func(t *testing.T) {
			LoopDecides(t, func() uint64 { return check.Expect(p.Loop, p.Ref, check.BenchSpec{Seed: 1, Warm: 1000, N: 5000}) })
			if p.Iteration.What == "" || p.Iteration.Per == "" {
				t.Errorf("Parts.Iteration = %+v: the stub's docs word the budget with both (see check.Budget)", p.Iteration)
			}
		})
	}
}

// Generators runs, as subtests of t, the tests of the generators and
// model of a suite's parts p: DomainsGenerateValidScripts (Domains with
// minOps), ModelAgreesWithReference (ModelAgrees, replay on the reference
// p.Ref) and EveryPropertyHasADomain (on p's suite over no
// implementation).
func Generators[I, S, O any, D check.Domain[S, O]](t *testing.T, p check.Parts[I, D, S, O], minOps func(D) float64, replay func(I, check.Script[S, O]) check.Trace) {
	t.Helper()
	t.Run("DomainsGenerateValidScripts", func(t *testing.T) { Domains(t, p.Domains, minOps, nil) })
	t.Run("ModelAgreesWithReference", func(t *testing.T) {
		ModelAgrees(t, p.Domains, func(s check.Script[S, O]) check.Trace { return replay(p.Ref, s) })
	})
	t.Run("EveryPropertyHasADomain", func(t *testing.T) { EveryPropertyHasADomain(t, p.Suite(nil), p.Domains) })
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
