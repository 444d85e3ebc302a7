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

// Signatures leave out what code cannot tell apart (docs, parameter names,
// an error's message) and keep what it can (a type, a result, a name).
func TestSignaturesAreWhatCodeUses(t *testing.T) {
	write := func(src string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n\nimport \"errors\"\n\n"+src), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	sigs := func(src string) string {
		got, err := Signatures(write(src))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(got, "; ")
	}
	base := sigs("// ErrFull says so.\nvar ErrFull = errors.New(\"full\")\n\ntype Q struct{ n int }\n\n// Push pushes.\nfunc (q *Q) Push(session, cost uint64) {}\n")
	if want := "func (q *Q) Push(uint64, uint64); type Q struct {\n\t// contains filtered or unexported fields\n}; var ErrFull"; base != want {
		t.Errorf("Signatures = %q, want %q", base, want)
	}
	same := sigs("var ErrFull = errors.New(\"the queue is full\")\n\ntype Q struct{ items []uint64 }\n\nfunc (q *Q) Push(id uint64, c uint64) { q.items = append(q.items, c) }\n")
	if same != base {
		t.Errorf("another body, docs, names and message: Signatures = %q, want %q", same, base)
	}
	for _, other := range []string{
		"var ErrFull = errors.New(\"full\")\n\ntype Q struct{}\n\nfunc (q *Q) Push(session uint32, cost uint64) {}\n",
		"var ErrFull = errors.New(\"full\")\n\ntype Q struct{}\n\nfunc (q *Q) Push(session, cost uint64) bool { return true }\n",
		"var ErrQueueFull = errors.New(\"full\")\n\ntype Q struct{}\n\nfunc (q *Q) Push(session, cost uint64) {}\n",
	} {
		if got := sigs(other); got == base {
			t.Errorf("Signatures of\n%s\nare the base's, %q", other, got)
		}
	}
}
