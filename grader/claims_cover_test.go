package grader_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestClaimsCover fails when a sentence a message can hold is neither a
// rule (a stem in rules: true whatever the script) nor a claim about the
// counterexample (a phrase in claims, checked by checkClaims), nor part of
// one (a stem in parts, with the phrase of the claim that checks it), nor a
// claim still unchecked (a stem in unchecked, which says why); and when a
// claim's phrase or a stem is in no template (it has rotted). The
// templates are each suite's checks.json whys and the text of its
// explanations (see isSuiteTemplate), and grader/check's words around
// them (see isCheckTemplate).
func TestClaimsCover(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("suite", "*", "checks.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no suites: %v", err)
	}
	all := map[string][]string{"": templates(t, "check", isCheckTemplate)}
	for _, p := range paths {
		ex := filepath.Base(filepath.Dir(p))
		all[ex] = append(whys(t, p), templates(t, filepath.Join("suite", ex), isSuiteTemplate)...)
	}
	phrases := func(ex string) (out []string) {
		for _, c := range claims {
			if c.exercise == "" || c.exercise == ex {
				out = append(out, c.phrase)
			}
		}
		return out
	}
	has := func(list []string) func(string) bool {
		return func(s string) bool {
			return slices.ContainsFunc(list, func(k string) bool { return strings.Contains(s, k) })
		}
	}
	for ex, texts := range all {
		known := slices.Concat(phrases(ex), rules[""], rules[ex], slices.Collect(maps.Keys(parts[ex])), unchecked[""], unchecked[ex])
		for _, text := range texts {
			for _, s := range sentences(text) {
				if !has(known)(s) {
					t.Errorf("%s: %q is neither a rule nor a claim: add its stem to rules (true whatever the script) or a claim with a predicate", cmpOr(ex, "grader/check"), s)
				}
			}
		}
	}
	// A stem or phrase of an exercise that none of its templates holds
	// (nor grader/check's) has rotted; a part must share its template
	// with a claim's phrase.
	in := func(ex string, ok func(string) bool) bool {
		for e, texts := range all {
			if (ex == "" || e == ex || e == "") && slices.ContainsFunc(texts, ok) {
				return true
			}
		}
		return false
	}
	for _, c := range claims {
		if !in(c.exercise, func(s string) bool { return strings.Contains(s, c.phrase) }) {
			t.Errorf("claim %q (%s) is in no message template", c.phrase, c.exercise)
		}
	}
	for _, list := range []map[string][]string{rules, unchecked} {
		for ex, stems := range list {
			for _, stem := range stems {
				if !in(ex, func(s string) bool { return strings.Contains(s, stem) }) {
					t.Errorf("stem %q (%s) is in no message template", stem, ex)
				}
			}
		}
	}
	for ex, stems := range parts {
		for stem, phrase := range stems {
			if !in(ex, func(s string) bool { return strings.Contains(s, stem) }) || !slices.Contains(phrases(ex), phrase) {
				t.Errorf("part %q (%s) is in no message template, or its claim %q is not one of %s's", stem, ex, phrase, ex)
			}
		}
	}
	for ex, stems := range unchecked {
		for _, s := range stems {
			t.Logf("%s: unchecked claim %q", cmpOr(ex, "grader/check"), s)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// whys are the sentences of the whys of the checks.json at path.
func whys(t *testing.T, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var prose []struct {
		Why string `json:"why"`
	}
	if err := json.Unmarshal(data, &prose); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, p := range prose {
		out = append(out, p.Why)
	}
	return out
}

// templates are the string literals of the Go files of
// dir (tests aside) that pick selects, given the name of the function
// they are in ("" outside one) and the file's name.
func templates(t *testing.T, dir string, pick func(fn, file string, lit *ast.BasicLit, stack []ast.Node) bool) []string {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			fn := ""
			if len(stack) > 1 {
				if d, ok := stack[1].(*ast.FuncDecl); ok {
					fn = d.Name.Name
				}
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && pick(fn, filepath.Base(path), lit, stack) {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, s)
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	return out
}

// isSuiteTemplate picks the literals of a suite that can be part of a
// message: in its explain.go, in a function whose name begins with
// "explain", a string constant, a check's Why, a why given to check.Fail,
// or one declared as such (why := ...).
func isSuiteTemplate(fn, file string, _ *ast.BasicLit, stack []ast.Node) bool {
	if slices.ContainsFunc(stack, func(n ast.Node) bool { _, ok := n.(*ast.ImportSpec); return ok }) {
		return false
	}
	if file == "explain.go" || strings.HasPrefix(fn, "explain") {
		return true
	}
	for _, n := range slices.Backward(stack) {
		switch n := n.(type) {
		case *ast.ValueSpec:
			return len(n.Names) > 0 && fn == "" && isConst(stack)
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Why" {
				return true
			}
		case *ast.CallExpr:
			if s, ok := n.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Fail" && len(n.Args) == 2 {
				return true
			}
		case *ast.AssignStmt:
			if id, ok := n.Lhs[0].(*ast.Ident); ok && id.Name == "why" && n.Tok == token.DEFINE {
				return true
			}
		}
	}
	return false
}

func isConst(stack []ast.Node) bool {
	for _, n := range stack {
		if d, ok := n.(*ast.GenDecl); ok {
			return d.Tok == token.CONST
		}
	}
	return false
}

// isCheckTemplate picks the literals of grader/check that become part of
// a check's message: a Message of an outcome, or words of the functions
// that write one.
func isCheckTemplate(fn, _ string, _ *ast.BasicLit, stack []ast.Node) bool {
	if slices.Contains([]string{"message", "explain", "charge", "Fail"}, fn) {
		return true
	}
	return slices.ContainsFunc(stack, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return false
		}
		k, ok := kv.Key.(*ast.Ident)
		return ok && k.Name == "Message"
	})
}

// sentences splits text into its sentences of three words or more (a
// fragment of fewer, "Here ", is only glue).
func sentences(text string) []string {
	var out []string
	for _, s := range regexp.MustCompile(`[.:;]\s+`).Split(text, -1) {
		words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
		if len(words) >= 3 {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}
