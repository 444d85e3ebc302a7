package grader

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ratelab/grader/buildcache"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
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

// The key covers the submitted files' names and bytes, and not the folder
// they were uploaded to.
func TestBuildKeyFollowsTheSubmittedFiles(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		t.Fatal(err)
	}
	key := func(files map[string]string, sandboxed bool, ids ...string) string {
		t.Helper()
		dir := t.TempDir()
		writeTree(t, dir, files)
		g := &grading{opts: Options{Root: root, Module: "ratelab", Target: "exercises", Replace: map[string]string{"tokenbucket": dir}}}
		if sandboxed {
			g.opts.Sandbox = &sandbox.Sandbox{}
		}
		k, err := g.buildKey(ids)
		if err != nil {
			t.Fatal(err)
		}
		return k.String()
	}
	base := key(map[string]string{"tokenbucket.go": string(src)}, false, "tokenbucket")
	flipped := []byte(string(src))
	flipped[len(flipped)-2] ^= 1
	for _, c := range []struct {
		name      string
		files     map[string]string
		sandboxed bool
		ids       []string
		same      bool
	}{
		{"the same files in another folder", map[string]string{"tokenbucket.go": string(src)}, false, []string{"tokenbucket"}, true},
		{"a test file beside them", map[string]string{"tokenbucket.go": string(src), "mine_test.go": "package tokenbucket\n"}, false, []string{"tokenbucket"}, true},
		{"one byte changed", map[string]string{"tokenbucket.go": string(flipped)}, false, []string{"tokenbucket"}, false},
		{"the file renamed", map[string]string{"bucket.go": string(src)}, false, []string{"tokenbucket"}, false},
		{"a file added", map[string]string{"tokenbucket.go": string(src), "extra.go": "package tokenbucket\n"}, false, []string{"tokenbucket"}, false},
		{"built in the sandbox", map[string]string{"tokenbucket.go": string(src)}, true, []string{"tokenbucket"}, false},
		{"another exercise beside it", map[string]string{"tokenbucket.go": string(src)}, false, []string{"tokenbucket", "gcra"}, false},
	} {
		if got := key(c.files, c.sandboxed, c.ids...); (got == base) != c.same {
			t.Errorf("%s: same key = %v, want %v", c.name, got == base, c.same)
		}
	}
}

// A submission that imports a package that does not exist is reported as
// not building, with a cache as without.
func TestBuildCacheMissingImportDoesNotBuild(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"tokenbucket.go": "package tokenbucket\n\nimport _ \"ratelab/no/such/package\"\n"})
	cache, err := buildcache.Open(filepath.Join(t.TempDir(), "programs"), 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Grade(context.Background(), Options{Root: root, Exercises: []string{"tokenbucket"}, Seed: DefaultSeed, NoBench: true,
		Replace: map[string]string{"tokenbucket": dir}, BuildCache: cache})
	if err != nil {
		t.Fatalf("Grade: %v; want a report saying the code does not build", err)
	}
	if e := r.Exercises[0]; e.Status != report.Error || !strings.Contains(e.Message, "does not build") {
		t.Errorf("tokenbucket: %s %q; want error, does not build", e.Status, e.Message)
	}
}
