package coursecheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/fixture"
	"ratelab/grader/report"
)

// The course as it stands is whole: every exercise has every piece.
func TestCourseIsWhole(t *testing.T) {
	for _, p := range Check(filepath.Join("..", "..")) {
		t.Error(p)
	}
}

// An exercise with one of its two pitfalls caught by no fixture and
// modelled by no mistake, and one correct fixture, is told so, and the
// pitfall it has is not blamed.
func TestFixtureProblemsFindWhatIsMissing(t *testing.T) {
	plan := []report.Check{
		{ID: "leakybucket/drains", Pitfall: "drain"},
		{ID: "leakybucket/overflow", Pitfall: "overflow"},
	}
	fake := []fixture.Fixture{
		{Exercise: "leakybucket", Name: "never-drains", Fails: []string{"drains"}},
		{Exercise: "leakybucket", Name: "correct-queue"},
		{Exercise: "leakybucket", Name: "stub", GradedBy: "TestStubs"},
	}
	mistakes := []check.Named{{Name: "never-drains", Pitfall: "drain", Says: "never drains"}}
	got := strings.Join(fixtureProblems("leakybucket", plan, fake, mistakes), "\n")
	for _, want := range []string{`fixture fails a check for pitfall "overflow"`, "1 correct", `no mistake of pitfall "overflow"`} {
		if !strings.Contains(got, want) {
			t.Errorf("problems of an incomplete exercise:\n%s\nwant one mentioning %q", got, want)
		}
	}
	if strings.Contains(got, `pitfall "drain"`) {
		t.Errorf("problems blame pitfall drain, which never-drains fails and a mistake models:\n%s", got)
	}
}

// In a repository holding only an exercise's stub, the exercise lacks its
// reference and its fixtures; with a reference that lacks part of the
// stub's API, that part is named.
func TestExerciseProblemsNameTheMissingFiles(t *testing.T) {
	root := t.TempDir()
	stub := filepath.Join(root, "exercises", "gcra")
	if err := os.MkdirAll(stub, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "exercises", "gcra", "gcra.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stub, "gcra.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(exerciseProblems(root, "gcra"), "\n")
	for _, want := range []string{"no reference: solutions/gcra", "grader/testdata/fixtures/gcra", "want at least 2", "grader/adapter/gcra/adapter.go"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems of a lone stub:\n%s\nwant one mentioning %q", got, want)
		}
	}

	ref := filepath.Join(root, "solutions", "gcra")
	if err := os.MkdirAll(ref, 0o755); err != nil {
		t.Fatal(err)
	}
	partial := "package gcra\n\ntype GCRA struct{}\n\nfunc New(ratePerSec, burst, nowNs uint64) *GCRA { return nil }\n"
	if err := os.WriteFile(filepath.Join(ref, "gcra.go"), []byte(partial), 0o644); err != nil {
		t.Fatal(err)
	}
	got = strings.Join(exerciseProblems(root, "gcra"), "\n")
	if want := "solutions/gcra lacks the stub's func (g *GCRA) TryAcquire(uint64) bool"; !strings.Contains(got, want) || strings.Count(got, "lacks the stub's") != 1 {
		t.Errorf("problems of a reference without TryAcquire:\n%s\nwant one, %q", got, want)
	}
}

// A table row with the wrong points, or without an exercise, is told.
func TestContributingProblemsReadTheTable(t *testing.T) {
	root := t.TempDir()
	table := "| exercise | points | pitfalls |\n|---|---|---|\n| gcra | 1 | `exactness` |\n"
	if err := os.WriteFile(filepath.Join(root, "CONTRIBUTING.md"), []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(contributingProblems(root), "\n")
	for _, want := range []string{"gcra has 1 points", "gcra's pitfalls are", "no row for tokenbucket"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems of a short table:\n%s\nwant one mentioning %q", got, want)
		}
	}
}
