package mutate

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// loadSnippet loads a package of one file, x.go, holding src after the
// package clause.
func loadSnippet(t *testing.T, src string) *Package {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n\n"+src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// diffs lists a package's mutants as "OPERATOR: line after" (or
// "OPERATOR: stillborn").
func diffs(p *Package) []string {
	var out []string
	for _, m := range p.Mutants() {
		if m.Stillborn != "" {
			out = append(out, string(m.Operator)+": stillborn")
			continue
		}
		out = append(out, string(m.Operator)+": "+m.After)
	}
	return out
}

func TestOperators(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"less", "func f(a, b int) bool { return a < b }", []string{
			"CONDITIONALS_BOUNDARY: func f(a, b int) bool { return a <= b }",
			"CONDITIONALS_NEGATION: func f(a, b int) bool { return a >= b }",
		}},
		{"less or equal", "func f(a, b int) bool { return a <= b }", []string{
			"CONDITIONALS_BOUNDARY: func f(a, b int) bool { return a < b }",
			"CONDITIONALS_NEGATION: func f(a, b int) bool { return a > b }",
		}},
		{"greater", "func f(a, b int) bool { return a > b }", []string{
			"CONDITIONALS_BOUNDARY: func f(a, b int) bool { return a >= b }",
			"CONDITIONALS_NEGATION: func f(a, b int) bool { return a <= b }",
		}},
		{"greater or equal", "func f(a, b int) bool { return a >= b }", []string{
			"CONDITIONALS_BOUNDARY: func f(a, b int) bool { return a > b }",
			"CONDITIONALS_NEGATION: func f(a, b int) bool { return a < b }",
		}},
		{"equal", "func f(a, b string) bool { return a == b }", []string{
			"CONDITIONALS_NEGATION: func f(a, b string) bool { return a != b }",
		}},
		{"not equal", "func f(a, b any) bool { return a != b }", []string{
			"CONDITIONALS_NEGATION: func f(a, b any) bool { return a == b }",
		}},
		{"arithmetic", "func f(a, b uint64) uint64 { return a + b - a*b/a%b }", []string{
			"ARITHMETIC_BASE: func f(a, b uint64) uint64 { return a - b - a*b/a%b }",
			"ARITHMETIC_BASE: func f(a, b uint64) uint64 { return a + b + a*b/a%b }",
			"ARITHMETIC_BASE: func f(a, b uint64) uint64 { return a + b - a/b/a%b }",
			"ARITHMETIC_BASE: func f(a, b uint64) uint64 { return a + b - a*b*a%b }",
			"ARITHMETIC_BASE: func f(a, b uint64) uint64 { return a + b - a*b/a*b }",
		}},
		{"strings are not numbers", `func f(a, b string) string { a += b; return a + b }`, []string{
			"REMOVE_STATEMENT: func f(a, b string) string { ; return a + b }",
			"REMOVE_SELF_ASSIGNMENTS: func f(a, b string) string { a = b; return a + b }",
		}},
		{"increment", "func f(n int) int { n++; return n }", []string{
			"REMOVE_STATEMENT: func f(n int) int { ; return n }",
			"INCREMENT_DECREMENT: func f(n int) int { n--; return n }",
		}},
		{"decrement", "func f(n int) int { n--; return n }", []string{
			"REMOVE_STATEMENT: func f(n int) int { ; return n }",
			"INCREMENT_DECREMENT: func f(n int) int { n++; return n }",
		}},
		{"negative", "func f(a int) int { return -a }", []string{
			"INVERT_NEGATIVES: func f(a int) int { return a }",
		}},
		{"add assign", "func f(a, b int) int { a += b; return a }", []string{
			"REMOVE_STATEMENT: func f(a, b int) int { ; return a }",
			"INVERT_ASSIGNMENTS: func f(a, b int) int { a -= b; return a }",
			"REMOVE_SELF_ASSIGNMENTS: func f(a, b int) int { a = b; return a }",
		}},
		{"rem assign", "func f(a, b int) int { a %= b; return a }", []string{
			"REMOVE_STATEMENT: func f(a, b int) int { ; return a }",
			"INVERT_ASSIGNMENTS: func f(a, b int) int { a *= b; return a }",
			"REMOVE_SELF_ASSIGNMENTS: func f(a, b int) int { a = b; return a }",
		}},
		{"logical", "func f(a, b bool) bool { return a && b || a }", []string{
			"INVERT_LOGICAL: func f(a, b bool) bool { return a || b || a }",
			"INVERT_LOGICAL: func f(a, b bool) bool { return a && b && a }",
		}},
		{"bitwise", "func f(a, b uint) uint { return a&b | a ^ b&^a<<1 }", []string{
			"INVERT_BITWISE: func f(a, b uint) uint { return a|b | a ^ b&^a<<1 }",
			"INVERT_BITWISE: func f(a, b uint) uint { return a&b & a ^ b&^a<<1 }",
			"INVERT_BITWISE: func f(a, b uint) uint { return a&b | a & b&^a<<1 }",
			"INVERT_BITWISE: func f(a, b uint) uint { return a&b | a ^ b&a<<1 }",
			"INVERT_BITWISE: func f(a, b uint) uint { return a&b | a ^ b&^a>>1 }",
		}},
		{"bitwise assign", "func f(a, b uint) uint { a |= b; return a }", []string{
			"REMOVE_STATEMENT: func f(a, b uint) uint { ; return a }",
			"REMOVE_SELF_ASSIGNMENTS: func f(a, b uint) uint { a = b; return a }",
			"INVERT_BWASSIGN: func f(a, b uint) uint { a &= b; return a }",
		}},
		{"shift assign", "func f(a uint) uint { a <<= 1; return a }", []string{
			"REMOVE_STATEMENT: func f(a uint) uint { ; return a }",
			"REMOVE_SELF_ASSIGNMENTS: func f(a uint) uint { a = 1; return a }",
			"INVERT_BWASSIGN: func f(a uint) uint { a >>= 1; return a }",
		}},
		{"loop control", "func f(xs []int) { for _, x := range xs { if x > 0 { continue }; break } }", []string{
			"CONDITIONALS_BOUNDARY: func f(xs []int) { for _, x := range xs { if x >= 0 { continue }; break } }",
			"CONDITIONALS_NEGATION: func f(xs []int) { for _, x := range xs { if x <= 0 { continue }; break } }",
			"INVERT_LOOPCTRL: func f(xs []int) { for _, x := range xs { if x > 0 { break }; break } }",
			"INVERT_LOOPCTRL: func f(xs []int) { for _, x := range xs { if x > 0 { continue }; continue } }",
		}},
		{"a break of a switch is not a loop's", "func f(x int) { switch x { case 1: break } }", nil},
		{"a break of a switch in a loop is", "func f(x int) { for { switch x { case 1: break } } }", []string{
			"INVERT_LOOPCTRL: func f(x int) { for { switch x { case 1: continue } } }",
		}},
		{"a call is removed", "func g(int) {}\nfunc f(a int) { g(a) }", []string{
			"REMOVE_STATEMENT: func f(a int) { }",
		}},
		{"a removed statement keeps its locals used", "func f() int { x, y := 1, 2; x = y; return x }", []string{
			"REMOVE_STATEMENT: func f() int { x, y := 1, 2; _ = y; return x }",
		}},
		{"declarations and blank assignments stay", "func f() { x := 1; var y = x; _ = y }", nil},
		{"a constant that overflows is stillborn", "var v uint8 = 250 - 10", []string{
			"ARITHMETIC_BASE: stillborn",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := diffs(loadSnippet(t, tt.src))
			if !slices.Equal(got, tt.want) {
				t.Errorf("mutants of %q:\n  got  %q\n  want %q", tt.src, got, tt.want)
			}
		})
	}
}

// TestRemovedImport: a statement that was an import's only use is removed
// with the import made blank, so the mutant compiles.
func TestRemovedImport(t *testing.T) {
	p := loadSnippet(t, "import \"math\"\n\nfunc f(x float64) float64 {\n\tx = math.Abs(x)\n\treturn x\n}\n")
	ms := p.Mutants()
	if len(ms) != 1 || ms[0].Operator != RemoveStatement || ms[0].Stillborn != "" {
		t.Fatalf("Mutants() = %+v, want one REMOVE_STATEMENT that compiles", ms)
	}
	src := string(p.Source(ms[0]))
	if !strings.Contains(src, `import _ "math"`) || strings.Contains(src, "math.Abs") {
		t.Errorf("Source(%s) =\n%s\nwant the call gone and math imported as _", ms[0], src)
	}
	if got, want := ms[0].Diff(), "x = math.Abs(x)  →  (removed)"; got != want {
		t.Errorf("Diff() = %q, want %q", got, want)
	}
}

// TestOrder: the mutants of a package come file by file, then by position,
// then in the order of Operators, and the same every time.
func TestOrder(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"b.go": "package x\n\nfunc g(a, b int) bool { return a+b > b }\n",
		"a.go": "package x\n\nfunc f(a, b int) int {\n\ta++\n\treturn a - b\n}\n",
		// Test files are not mutated.
		"a_test.go": "package x\n\nfunc h(a int) int { return a + 1 }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range p.Mutants() {
		got = append(got, m.String())
	}
	want := []string{
		"a.go:4:2 REMOVE_STATEMENT",
		"a.go:4:3 INCREMENT_DECREMENT",
		"a.go:5:11 ARITHMETIC_BASE",
		"b.go:3:33 ARITHMETIC_BASE",
		"b.go:3:36 CONDITIONALS_BOUNDARY",
		"b.go:3:36 CONDITIONALS_NEGATION",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Mutants() =\n  %q\nwant\n  %q", got, want)
	}
	p2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Mutants(), p2.Mutants()) {
		t.Error("two loads of the same package list different mutants")
	}
}

// TestWrite: the package written with a mutant differs from the original
// in the mutant's file alone, at the mutant's place alone.
func TestWrite(t *testing.T) {
	p := loadSnippet(t, "func f(a, b int) bool { return a < b }\n")
	m := p.Mutants()[0]
	dir := t.TempDir()
	if err := p.Write(m, dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "x.go"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "package x\n\nfunc f(a, b int) bool { return a <= b }\n"; got != want {
		t.Errorf("written x.go = %q, want %q", got, want)
	}
}

// TestReferencesLoad: every reference in solutions/ loads, has mutants,
// and hardly any of them is stillborn (the engine keeps them compiling).
func TestReferencesLoad(t *testing.T) {
	dirs, err := filepath.Glob("../../solutions/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no references: %v", err)
	}
	for _, dir := range dirs {
		p, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		ms := p.Mutants()
		stillborn := 0
		for _, m := range ms {
			if m.Stillborn != "" {
				stillborn++
				t.Logf("%s: stillborn %s: %s", filepath.Base(dir), m, m.Stillborn)
			}
		}
		if len(ms) == 0 || stillborn*10 > len(ms) {
			t.Errorf("%s: %d mutants, %d stillborn; want some, under a tenth stillborn", filepath.Base(dir), len(ms), stillborn)
		}
	}
}
