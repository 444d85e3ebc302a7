package server

import (
	"os"
	"path/filepath"
	"testing"
)

// writeAtomic replaces the file by a rename (a reader holds either the
// old file or the new one, never half of one), keeps its permissions, and
// leaves no temporary file.
func TestWriteAtomicRenames(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "gcra.go")
	if err := os.WriteFile(p, []byte("package gcra // old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	before, _ := old.Stat()
	if err := writeAtomic(dir, "gcra.go", []byte("package gcra // new\n")); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Error("writeAtomic wrote into the old file; want a new file renamed over it")
	}
	if after.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v after writeAtomic; want the old file's 0600", after.Mode().Perm())
	}
	b := make([]byte, 64)
	n, _ := old.Read(b)
	if got := string(b[:n]); got != "package gcra // old\n" {
		t.Errorf("a reader of the old file reads %q; want the whole old text", got)
	}
	if got, _ := os.ReadFile(p); string(got) != "package gcra // new\n" {
		t.Errorf("gcra.go = %q; want the new text", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the folder after writeAtomic; want 1 (no temporary file left)", len(entries))
	}
	if err := writeAtomic(dir, "new.go", []byte("package gcra\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "new.go")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("a new file: %v, %v; want mode 0644", fi, err)
	}
}

// The version changes with any name or content, and does not run two
// files' names and contents together.
func TestFilesVersion(t *testing.T) {
	a := filesVersion(map[string]string{"a.go": "x", "b.go": "y"})
	for _, other := range []map[string]string{
		{"a.go": "x", "b.go": "z"},
		{"a.go": "x", "c.go": "y"},
		{"a.go": "x"},
		{"a.go": "xb.go", "": "y"},
	} {
		if filesVersion(other) == a {
			t.Errorf("filesVersion(%v) = filesVersion of a.go, b.go", other)
		}
	}
	if filesVersion(map[string]string{"b.go": "y", "a.go": "x"}) != a {
		t.Error("filesVersion depends on the map's order")
	}
}
