package suitegen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/internal/suitegen"
)

// TestSuitesAreListed: grader/suites_gen.go is what Generate writes from
// the folders under grader/suite as they are.
func TestSuitesAreListed(t *testing.T) {
	grader := filepath.Join("..", "..", "grader")
	want, err := suitegen.Generate(filepath.Join(grader, "suite"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(grader, "suites_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("grader/suites_gen.go is not the list of the folders under grader/suite: run make generate\nwant:\n%s", want)
	}
}

// TestGenerateListsFoldersWithASuite: a folder with a suite.go is listed,
// by its name, in order; one without is not; a name that is not an id is
// an error.
func TestGenerateListsFoldersWithASuite(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"zeta/suite.go", "alpha/suite.go", "notes/readme.txt"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := suitegen.Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	a, z := strings.Index(s, `"alpha": alphasuite.Checks.Suite`), strings.Index(s, `zetasuite.Checks.Suite`)
	if a < 0 || z < a || !strings.Contains(s, `"zeta": `) || strings.Contains(s, "notes") || !strings.Contains(s, `alphasuite "ratelab/grader/suite/alpha"`) {
		t.Errorf("Generate wrote:\n%s\nwant alpha then zeta, each imported and listed, and no notes", s)
	}
	os.MkdirAll(filepath.Join(dir, "Bad-Name"), 0o755)
	os.WriteFile(filepath.Join(dir, "Bad-Name", "suite.go"), []byte("package x\n"), 0o644)
	if _, err := suitegen.Generate(dir); err == nil || !strings.Contains(err.Error(), "Bad-Name") {
		t.Errorf("a folder named Bad-Name: err %v, want one naming it", err)
	}
}
