package grader

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// The rewritten adapter parses, declares the package asked, imports the
// path asked as impl, registers the name asked, and keeps the rest.
func TestRewriteAdapter(t *testing.T) {
	for _, c := range []struct{ id, name, pkg, implPath string }{
		{"breaker", "breaker", "breaker", "ratelab/exercises/breaker"},
		{"throttle", "throttle~3", "adapter", "ratelab/grader/harness/child/v3"},
	} {
		src, err := os.ReadFile(filepath.Join("adapter", c.id, "adapter.go"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := adapterSource(c.id, c.name, c.pkg, c.implPath)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out, generatedHeader) {
			t.Errorf("%s: the rewritten adapter does not open with %q", c.id, generatedHeader)
		}
		f, err := parser.ParseFile(token.NewFileSet(), "adapter.go", out, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: the rewritten adapter does not parse: %v\n%s", c.id, err, out)
		}
		if f.Name.Name != c.pkg {
			t.Errorf("%s: package %s, want %s", c.id, f.Name.Name, c.pkg)
		}
		var impl []string
		for _, imp := range f.Imports {
			if imp.Name != nil && imp.Name.Name == "impl" {
				impl = append(impl, imp.Path.Value)
			}
		}
		if want := []string{strconv.Quote(c.implPath)}; !slices.Equal(impl, want) {
			t.Errorf("%s: imports as impl %v, want %v", c.id, impl, want)
		}
		if got := constName(t, f); got != strconv.Quote(c.name) {
			t.Errorf("%s: const name = %s, want %q", c.id, got, c.name)
		}
		// With the three put back, the file is the source.
		back := strings.TrimPrefix(out, generatedHeader)
		back = strings.Replace(back, "package "+c.pkg+"\n", "package "+c.id+"\n", 1)
		back = strings.Replace(back, "impl "+strconv.Quote(c.implPath), "impl "+strconv.Quote("ratelab/solutions/"+c.id), 1)
		back = strings.Replace(back, "name = "+strconv.Quote(c.name), "name = "+strconv.Quote(c.id), 1)
		// gofmt sorts the imports again, by the old paths.
		if b, err := format.Source([]byte(back)); err != nil || string(b) != string(src) {
			t.Errorf("%s: the rewrite changed more than the three (%v):\n%s", c.id, err, out)
		}
	}
}

// constName returns the value of f's constant name as written.
func constName(t *testing.T, f *ast.File) string {
	t.Helper()
	for _, d := range f.Decls {
		if d, ok := d.(*ast.GenDecl); ok && d.Tok == token.CONST {
			for _, s := range d.Specs {
				s := s.(*ast.ValueSpec)
				if s.Names[0].Name == "name" {
					return s.Values[0].(*ast.BasicLit).Value
				}
			}
		}
	}
	t.Fatal("no constant name")
	return ""
}

// An adapter without an import named impl, or without a constant name, is
// refused, not written half rewritten.
func TestRewriteAdapterRefusesAnotherShape(t *testing.T) {
	for name, src := range map[string]string{
		"no impl":         "package a\n\nimport x \"ratelab/solutions/gcra\"\n\nconst name = \"gcra\"\n\nvar _ = x.New\n",
		"no name":         "package a\n\nimport impl \"ratelab/solutions/gcra\"\n\nvar _ = impl.New\n",
		"name not string": "package a\n\nimport impl \"ratelab/solutions/gcra\"\n\nconst name = 3\n\nvar _ = impl.New\n",
	} {
		if out, err := RewriteAdapter([]byte(src), "main", "x/y", "gcra"); err == nil {
			t.Errorf("%s: rewritten without an error:\n%s", name, out)
		}
	}
}

// Every gradable exercise has an adapter, every adapter an exercise, and
// an unknown exercise has none.
func TestEveryExerciseHasAnAdapter(t *testing.T) {
	dirs, err := fs.Glob(adapterFiles, "adapter/*/adapter.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if id := filepath.Base(filepath.Dir(d)); suites[id] == nil {
			t.Errorf("%s has an adapter but no suite (grader/suite/%s, listed by make generate)", id, id)
		}
	}
	for id := range suites {
		if _, err := adapterSource(id, id, id, "ratelab/exercises/"+id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	if _, err := adapterSource("nosuch", "nosuch", "nosuch", "ratelab/exercises/nosuch"); err == nil || !strings.Contains(err.Error(), `no grader suite for exercise "nosuch"`) {
		t.Errorf("adapterSource(nosuch) error = %v, want no grader suite", err)
	}
}

// The child program's build key changes when an exercise's adapter does.
func TestBuildKeyFollowsTheAdapter(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	g := &grading{opts: Options{Root: root, Module: "ratelab", Target: "exercises"}}
	key := func() string {
		t.Helper()
		k, err := g.buildKey([]string{"gcra"})
		if err != nil {
			t.Fatal(err)
		}
		return k.String()
	}
	before := key()
	src, err := fs.ReadFile(adapterFiles, "adapter/gcra/adapter.go")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { adapters = adapterFiles })
	adapters = fstest.MapFS{"adapter/gcra/adapter.go": {Data: append(src, "\nvar _ = 0\n"...)}}
	if key() == before {
		t.Error("the build key is the same with the adapter changed")
	}
	adapters = fstest.MapFS{"adapter/gcra/adapter.go": {Data: src}}
	if key() != before {
		t.Error("the build key changed with the adapter the same")
	}
}
