package checktest

import (
	"math/rand"
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// Mistakes runs, as subtests of t, the tests of a suite's error models
// (p.Mistakes): MistakesAreWellFormed, then, for each mistake, a subtest
// of MistakesAreDiagnosed (not in -short mode), these in parallel. A suite without error
// models runs none.
func Mistakes[I, S, O any, D check.Domain[S, O]](t *testing.T, p check.Parts[I, D, S, O]) {
	t.Helper()
	if len(p.Mistakes) == 0 {
		return
	}
	t.Run("MistakesAreWellFormed", func(t *testing.T) { wellFormed(t, p) })
	t.Run("MistakesAreDiagnosed", func(t *testing.T) {
		if testing.Short() {
			t.Skip("grades every mistake's model with every check")
		}
		for _, m := range p.Mistakes {
			t.Run(m.Name, func(t *testing.T) {
				t.Parallel() // each grades a model of its own, in this process
				diagnosed(t, p, m)
			})
		}
	})
}

// wellFormed: every mistake has a name used once, a sentence, and a
// pitfall one of the suite's checks is for; Replay is set; and each
// mistake's model is wrong somewhere in the suite's domains (a variant
// that never differs from the model could never be named).
func wellFormed[I, S, O any, D check.Domain[S, O]](t *testing.T, p check.Parts[I, D, S, O]) {
	if p.Replay == nil {
		t.Fatal("the suite has mistakes but no Replay to run them")
	}
	pitfalls := map[string]bool{}
	for _, c := range p.SuiteOf(p.Ref).Checks {
		pitfalls[c.Pitfall] = true
	}
	seen := map[string]bool{}
	for _, m := range p.Mistakes {
		switch {
		case m.Name == "" || seen[m.Name]:
			t.Errorf("mistake %q: no name, or there twice", m.Name)
		case m.Says == "":
			t.Errorf("mistake %s says nothing", m.Name)
		case !pitfalls[m.Pitfall]:
			t.Errorf("mistake %s: pitfall %q is no check's", m.Name, m.Pitfall)
		}
		seen[m.Name] = true
		if !wrongSomewhere(p, m) {
			t.Errorf("mistake %s: its model agrees with the correct one on 300 scripts of every domain", m.Name)
		}
		if msg := replaysWhole(p, m); msg != "" {
			t.Errorf("mistake %s: %s", m.Name, msg)
		}
	}
}

// replaysWhole says where the suite's Replay cannot replay a whole script
// (check.Script.Full) on m's model, past the calls where it differs from
// the correct one: Judge's Reproduces needs it to, or it learns nothing.
func replaysWhole[I, S, O any, D check.Domain[S, O]](p check.Parts[I, D, S, O], m check.Mistake[I]) string {
	for name, d := range p.Domains {
		r := rand.New(rand.NewSource(5))
		for range 50 {
			s := d.Gen(r, 50)
			s.Full = true
			if _, pn := check.Call(func() check.Trace { return p.Replay(m.Impl, s) }); pn != nil {
				return "the replay of a whole script of " + name + " panicked: " + pn.Error()
			}
		}
	}
	return ""
}

func wrongSomewhere[I, S, O any, D check.Domain[S, O]](p check.Parts[I, D, S, O], m check.Mistake[I]) bool {
	for _, d := range p.Domains {
		r := rand.New(rand.NewSource(3))
		for range 300 {
			if t, pn := check.Call(func() check.Trace { return p.Replay(m.Impl, d.Gen(r, 100)) }); pn == nil && t.Bad {
				return true
			}
		}
	}
	return false
}

// diagnosed grades m's model as if a learner had written it (every check
// but the benchmark, seed 1, in process) and judges the exercise: the
// checks that lose points must be those of m's pitfall (and exactness, at
// most), at least one of them failed with m's name among its mistakes,
// and every failure shows a counterexample. (Where two mistakes of one
// pitfall answer alike, the check may name the other.)
func diagnosed[I, S, O any, D check.Domain[S, O]](t *testing.T, p check.Parts[I, D, S, O], m check.Mistake[I]) {
	s := p.SuiteOf(m.Impl)
	outs := make([]check.Outcome, len(s.Checks))
	for i, c := range s.Checks {
		outs[i] = c.Run(1)
	}
	named := false
	for i, o := range s.Judge(1, outs) {
		c := s.Checks[i]
		if c.Kind == report.Benchmark || o.Status == report.Passed {
			continue
		}
		if o.Status != report.Failed {
			t.Errorf("%s: %s: %s", c.ID, o.Status, o.Message)
			continue
		}
		if c.Pitfall != m.Pitfall && c.Pitfall != check.Exactness && !c.Own {
			t.Errorf("%s (pitfall %s) fails for mistake %s (pitfall %s): %s", c.ID, c.Pitfall, m.Name, m.Pitfall, o.Message)
		}
		if o.Counterexample == nil {
			t.Errorf("%s fails without a counterexample: %s", c.ID, o.Message)
		}
		// A table check names the call that broke its rule, not a model:
		// its failure is the mistake's own.
		named = named || c.Pitfall == m.Pitfall && (o.Diagnosis == report.Reproduced || c.Own)
		t.Logf("%s: %s %v", c.ID, o.Diagnosis, o.Mistakes)
	}
	if !named {
		t.Errorf("no check of pitfall %s fails with a mistake its model reproduces", m.Pitfall)
	}
}
