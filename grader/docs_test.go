package grader_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ratelab/grader"
)

// TestLayoutNamesEveryPackage keeps CONTRIBUTING.md's Layout section whole:
// every package of the module is named there, in backticks, by its path
// (`cmd/gradebench`), by its path under its top folder's row (`check` in
// the grader/ row, `lti/ltitest`), or with an exercise's name written
// <name> (`suite/<name>`, `exercises/<name>`).
func TestLayoutNamesEveryPackage(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root(t), "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(b), "\n## Layout\n")
	if !ok {
		t.Fatal("CONTRIBUTING.md has no Layout section")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	names := map[string]bool{}
	for _, g := range grader.Gradable() {
		names[g.ID] = true
	}
	named := func(p string) bool {
		return strings.Contains(layout, "`"+p+"`") || strings.Contains(layout, "`"+p+"/`")
	}
	var pkgs []string
	err = filepath.WalkDir(root(t), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") && path != root(t) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			rel, err := filepath.Rel(root(t), filepath.Dir(path))
			if err != nil {
				return err
			}
			if rel = filepath.ToSlash(rel); !slices.Contains(pkgs, rel) {
				pkgs = append(pkgs, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 50 {
		t.Fatalf("found %d packages: the walk is wrong", len(pkgs))
	}
	for _, p := range pkgs {
		parts := strings.Split(p, "/")
		for i, s := range parts {
			if names[s] {
				parts[i] = "<name>"
			}
		}
		full, under := strings.Join(parts, "/"), strings.Join(parts[1:], "/")
		if !named(full) && (under == "" || !named(under)) {
			t.Errorf("CONTRIBUTING.md's Layout does not name the package %s (write `%s` in its row)", p, under)
		}
	}
}
