package grader

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/grader/buildcache"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
)

// writeFiles writes files (name → content) into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
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
		writeFiles(t, dir, files)
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
	writeFiles(t, dir, map[string]string{"tokenbucket.go": "package tokenbucket\n\nimport _ \"ratelab/no/such/package\"\n"})
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
