package apigen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/lab/course"
)

// A learner's fields, helpers and function bodies change nothing in the API
// shown; only the exported declarations do.
func TestStubAPIShowsOnlyTheExportedAPI(t *testing.T) {
	stub := "package x\n\n" +
		"// T is yours.\ntype T struct {\n\t// Your fields here.\n}\n\n" +
		"// New returns a T.\nfunc New() *T {\n\tpanic(\"x: New is not implemented yet\")\n}\n\n" +
		"func (t *T) Get() int { panic(\"x: Get is not implemented yet\") }\n"
	solved := "package x\n\nimport \"math\"\n\n" +
		"// T is yours.\ntype T struct {\n\tn int // mine\n\tm float64\n}\n\n" +
		"// New returns a T.\nfunc New() *T {\n\t// Start high.\n\treturn &T{n: math.MaxInt}\n}\n\n" +
		"func (t *T) Get() int { return t.n }\n\nfunc (t *T) bump() { t.n++ }\n\n" +
		"type inner struct{ A int }\n\nfunc (inner) Exported() {}\n\nconst limit = 1\n"
	want := "package x\n\n" +
		"// T is yours.\ntype T struct {\n\t// contains filtered or unexported fields\n}\n\n" +
		"// New returns a T.\nfunc New() *T\n\n" +
		"func (t *T) Get() int"
	for name, src := range map[string]string{"stub": stub, "solved": solved} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := stubAPI(dir); got != want || err != nil {
			t.Errorf("stubAPI(%s) = %q, %v; want %q, nil", name, got, err, want)
		}
	}
}

// An exercise whose stub folder does not exist yet is named in a comment,
// gets no entry, and the others are generated as usual.
func TestGenerateAPISkipsAMissingStub(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x", "x.go"), []byte("package x\n\n// F does.\nfunc F() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Generate(dir, []course.Exercise{{ID: "x"}, {ID: "later"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\"x\": `package x", "// later: no stub in exercises/later yet"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("Generate with a missing stub =\n%s\nwant it to contain %q", got, want)
		}
	}
	if strings.Contains(string(got), `"later":`) {
		t.Errorf("generateAPI gives the missing stub an entry:\n%s", got)
	}
}
