package live

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

var (
	jsEventTable = regexp.MustCompile(`(?s)const EVENT = \{(.*?)\};`)
	jsEventEntry = regexp.MustCompile(`(?m)^\s*[A-Z_]+:\s*"([^"]*)",?\s*(//.*)?$`)
)

// TestLiveJSEventTypes checks that live.js's EVENT table lists exactly the
// Type constants of event.go.
func TestLiveJSEventTypes(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "event.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Type" {
				continue
			}
			for _, v := range vs.Values {
				lit, ok := v.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("%s: a Type constant that is not a string literal", fset.Position(v.Pos()))
				}
				s, _ := strconv.Unquote(lit.Value)
				want = append(want, s)
			}
		}
	}
	slices.Sort(want)
	if len(want) < 8 {
		t.Fatalf("found %d Type constants in event.go (%q); want at least 8", len(want), want)
	}
	src, err := os.ReadFile("../../web/static/live.js")
	if err != nil {
		t.Fatal(err)
	}
	m := jsEventTable.FindSubmatch(src)
	if m == nil {
		t.Fatal("web/static/live.js has no `const EVENT = { ... };` table")
	}
	var js []string
	for _, e := range jsEventEntry.FindAllSubmatch(m[1], -1) {
		js = append(js, string(e[1]))
	}
	slices.Sort(js)
	if !slices.Equal(js, want) {
		t.Errorf("live.js's EVENT table = %q; want the Type constants %q", js, want)
	}
}
