// Package checktest holds the tests every suite in grader/suite/... runs
// on its own domains and checks: that the generators keep to their
// domains' rules, that the model agrees with the reference, that the
// reference passes every check, that no property goes without a domain.
package checktest

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	"ratelab/grader/report"
)

// Domains draws 300 scripts (seed 1, size 100) from each domain, in a
// subtest named after it, and fails if one leaves its domain (the shrinker
// keeps to the rules the generator must keep to, so gopter would discard
// it) or if they average fewer than minOps(d) calls (too short to reach
// the traps), or if drawing them again from the same seed gives other
// scripts. Then each, if not nil, looks at the domain's scripts.
func Domains[S, O any, D check.Domain[S, O]](t *testing.T, domains map[string]D, minOps func(D) float64, each func(t *testing.T, name string, scripts []check.Script[S, O])) {
	t.Helper()
	for name, d := range domains {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewSource(1))
			scripts := make([]check.Script[S, O], 300)
			ops := 0
			for i := range scripts {
				s := d.Gen(r, 100)
				if n := d.Valid(s); n != len(s.Ops) {
					t.Fatalf("generated script leaves the domain at call %d: %s", n, whole(s))
				}
				scripts[i] = s
				ops += len(s.Ops)
			}
			again := rand.New(rand.NewSource(1))
			for i := range scripts {
				if s := d.Gen(again, 100); !reflect.DeepEqual(s, scripts[i]) {
					t.Fatalf("the same seed draws another script %d: %s, then %s", i, whole(scripts[i]), whole(s))
				}
			}
			if avg, want := float64(ops)/float64(len(scripts)), minOps(d); avg < want {
				t.Errorf("scripts average %.1f calls, want at least %.1f", avg, want)
			}
			if each != nil {
				each(t, name, scripts)
			}
		})
	}
}

// ModelAgrees replays 2000 scripts (seed 2, size 100) of every domain on
// the reference solution with replay: the model and the reference must
// never differ.
func ModelAgrees[S, O any, D check.Domain[S, O]](t *testing.T, domains map[string]D, replay func(check.Script[S, O]) check.Trace) {
	t.Helper()
	for name, d := range domains {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewSource(2))
			for range 2000 {
				if tr := replay(d.Gen(r, 100)); tr.Bad {
					t.Fatalf("reference and model differ:\n%s\n%v", tr.Setup, tr.Steps)
				}
			}
		})
	}
}

// EveryPropertyHasADomain fails if a property check of s has no entry in
// domains, the suite's table of its generators: it would go untested.
func EveryPropertyHasADomain[D any](t *testing.T, s check.Suite, domains map[string]D) {
	t.Helper()
	if m := check.MissingDomains(s, domains); len(m) > 0 {
		t.Errorf("property checks without a generator in domains: %v", m)
	}
}

// ReferencePasses runs, in a subtest ReferencePassesEveryCheck, every
// check of suite but its benchmarks (tests never judge time: the grader's
// own tests grade the references' benchmarks) over the reference solution
// served by api, through the same encoding as the grading child, with
// seeds 1 to seeds: each must pass, the suite must not read as not
// started, and the points of all its checks must add up to points.
func ReferencePasses(t *testing.T, suite func(check.Remote) check.Suite, api harness.API, seeds int64, points float64) {
	t.Helper()
	t.Run("ReferencePassesEveryCheck", func(t *testing.T) { referencePasses(t, suite(harness.Local(api)), seeds, points) })
}

func referencePasses(t *testing.T, s check.Suite, seeds int64, points float64) {
	if s.NotStarted() {
		t.Fatal("the reference reads as not started")
	}
	total := 0.0
	for _, c := range s.Checks {
		total += c.Points
		if c.Kind == report.Benchmark {
			continue
		}
		for seed := int64(1); seed <= seeds; seed++ {
			if o := c.Run(seed); o.Status != report.Passed {
				t.Errorf("%s, seed %d: %s: %s %+v", c.ID, seed, o.Status, o.Message, o.Counterexample)
			}
		}
	}
	if total != points {
		t.Errorf("the checks' points add up to %v, want %v", total, points)
	}
}

// Passes fails t unless o, the outcome of the check named name on the
// reference, passed.
func Passes(t *testing.T, name string, o check.Outcome) {
	t.Helper()
	if o.Status != report.Passed {
		t.Errorf("%s on the reference: %s %s", name, o.Status, o.Message)
	}
}

// whole writes every field of s (its String is brief).
func whole[S, O any](s check.Script[S, O]) string {
	return fmt.Sprintf("{Setup:%+v Ops:%+v Full:%v}", s.Setup, s.Ops, s.Full)
}
