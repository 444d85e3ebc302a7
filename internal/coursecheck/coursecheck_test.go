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

// A list of exercises that differs from the catalogue is told, by file.
func TestListProblemsNameTheStaleFile(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"CONTRIBUTING.md", "README.md", filepath.Join("contrib", "github-classroom", "classroom.yml")} {
		b, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "CONTRIBUTING.md" {
			b = []byte(strings.Replace(string(b), "  | gcra | 25 |", "  | gcra | 1 |", 1))
		}
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(root, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := listProblems(root)
	if len(got) != 1 || !strings.HasPrefix(got[0], "CONTRIBUTING.md lists the exercises otherwise") {
		t.Errorf("problems of a table with a wrong row: %q; want one, naming CONTRIBUTING.md", got)
	}
}
