package class_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// eventTypes returns the values of the EventType constants declared in
// this package's Go files.
func eventTypes(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []string
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name != "class" {
			continue // this package's tests
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "EventType" {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Fatalf("%s: an EventType constant that is not a string literal: %T", fset.Position(v.Pos()), v)
					}
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, s)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

var (
	jsEventTable = regexp.MustCompile(`(?s)var EVENT = \{(.*?)\};`)
	jsEventEntry = regexp.MustCompile(`(?m)^\s*[A-Z]+:\s*"([^"]*)",?\s*(//.*)?$`)
)

// TestClassJSEventTypes checks that class.js's table of event types lists
// exactly the EventType constants.
func TestClassJSEventTypes(t *testing.T) {
	src, err := os.ReadFile("../../web/static/class.js")
	if err != nil {
		t.Fatal(err)
	}
	m := jsEventTable.FindSubmatch(src)
	if m == nil {
		t.Fatal("web/static/class.js has no `var EVENT = { ... };` table")
	}
	var js []string
	for _, e := range jsEventEntry.FindAllSubmatch(m[1], -1) {
		js = append(js, string(e[1]))
	}
	slices.Sort(js)
	want := eventTypes(t)
	if len(want) < 8 {
		t.Fatalf("found %d EventType constants in internal/class (%q); want at least 8", len(want), want)
	}
	if !slices.Equal(js, want) {
		t.Errorf("class.js's EVENT table = %q; want the EventType constants %q", js, want)
	}
}
