package courselists

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListsFollowTheCatalogue checks that a stale list is found and
// rewritten in place: rows and lines removed or changed come back, and
// the prose around them is untouched.
func TestListsFollowTheCatalogue(t *testing.T) {
	root := t.TempDir()
	var want = map[string]string{}
	for _, l := range lists {
		b, err := os.ReadFile(filepath.Join("..", "..", l.file))
		if err != nil {
			t.Fatal(err)
		}
		want[l.file] = string(b)
		os.MkdirAll(filepath.Join(root, filepath.Dir(l.file)), 0o755)
	}
	spoil := map[string][2]string{
		"CONTRIBUTING.md": {"  | gcra | 25 |", "  | gcra | 26 |"},
		"README.md":       {"`tokenbucket`, `gcra` |", "`tokenbucket` |"},
		filepath.Join("contrib", "github-classroom", "classroom.yml"): {"          GCRA_RESULTS: ${{ steps.grade.outputs.gcra }}\n", ""},
	}
	for _, l := range lists {
		s := spoil[l.file]
		if !strings.Contains(want[l.file], s[0]) {
			t.Fatalf("%s has no %q to spoil", l.file, s[0])
		}
		if err := os.WriteFile(filepath.Join(root, l.file), []byte(strings.Replace(want[l.file], s[0], s[1], 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	written, err := Write(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != len(lists) {
		t.Errorf("wrote %q, want every file", written)
	}
	for _, l := range lists {
		got, _ := os.ReadFile(filepath.Join(root, l.file))
		if string(got) != want[l.file] {
			t.Errorf("%s rewritten differs from the committed file", l.file)
		}
	}
	if again, err := Generate(root); err != nil || len(again) != 0 {
		t.Errorf("after Write, Generate = %d stale files, %v; want none", len(again), err)
	}
}
