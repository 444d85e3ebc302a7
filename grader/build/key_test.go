package build

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		// Old enough for the hash to be remembered: the test then also
		// checks that a remembered hash follows a change.
		old := time.Now().Add(-time.Hour)
		os.Chtimes(p, old, old)
	}
}

// The sources' hash changes with any byte of a file the packages depend
// on, and only with those; an import added is followed.
func TestSourcesHash(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":                          "module ratelab\n\ngo 1.24\n",
		"grader/harness/harness.go":       "package harness\n\nimport _ \"ratelab/grader/wire\"\n",
		"grader/harness/harness_test.go":  "package harness\n",
		"grader/wire/wire.go":             "package wire\n",
		"grader/testdata/fixture.go":      "package fixture\n",
		"other/other.go":                  "package other\n",
		"exercises/tokenbucket/tb.go":     "package tokenbucket\n",
		"exercises/tokenbucket/README.md": "the task\n",
	})
	sh := &sourceHasher{files: map[string]fileHash{}, deps: map[string]depList{}}
	pkgs := []string{"ratelab/grader/harness", "ratelab/exercises/tokenbucket"}
	sum := func() string {
		t.Helper()
		k, err := sh.sum(root, pkgs)
		if err != nil {
			t.Fatal(err)
		}
		return k.String()
	}
	base := sum()
	if again := sum(); again != base {
		t.Fatalf("the same tree hashed twice: %s, then %s", base, again)
	}
	for _, c := range []struct {
		name    string
		files   map[string]string
		changes bool
	}{
		{"one byte of the harness", map[string]string{"grader/harness/harness.go": "package harness\n\nimport _ \"ratelab/grader/wire\"\n\n"}, true},
		{"a package the harness imports", map[string]string{"grader/wire/wire.go": "package wire // v2\n"}, true},
		{"the graded package", map[string]string{"exercises/tokenbucket/tb.go": "package tokenbucket // mine\n"}, true},
		{"go.mod", map[string]string{"go.mod": "module ratelab\n\ngo 1.25\n"}, true},
		{"a new file in a package", map[string]string{"grader/wire/more.go": "package wire\n"}, true},
		{"a test file", map[string]string{"grader/harness/harness_test.go": "package harness // more\n"}, false},
		{"a fixture under testdata", map[string]string{"grader/testdata/fixture.go": "package changed\n"}, false},
		{"a package nothing imports", map[string]string{"other/other.go": "package other // changed\n"}, false},
		{"a file that is not Go", map[string]string{"exercises/tokenbucket/README.md": "changed\n"}, false},
		{"an import of that package", map[string]string{"grader/wire/more.go": "package wire\n\nimport _ \"ratelab/other\"\n"}, true},
		{"the package now imported", map[string]string{"other/other.go": "package other // changed again\n"}, true},
	} {
		writeTree(t, root, c.files)
		got := sum()
		if (got != base) != c.changes {
			t.Errorf("after changing %s: hash changed = %v, want %v", c.name, got != base, c.changes)
		}
		base = got
	}
	os.Rename(filepath.Join(root, "grader/wire/more.go"), filepath.Join(root, "grader/wire/other.go"))
	if sum() == base {
		t.Error("renaming a file left the hash unchanged")
	}
}
