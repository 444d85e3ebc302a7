package grader_test

import (
	"bytes"
	"context"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
)

// TestWrongEverywhereScoresAQuarter grades, for every exercise, two
// implementations made from its stub by replacing each panic with a
// return: of zero values (stub-like), and of true and 1 where the results
// are booleans and numbers (constant). Wrong on every plain script, each
// scores at most a quarter of the exercise's points: no check whose
// differences are charged elsewhere credits code that is wrong everywhere.
func TestWrongEverywhereScoresAQuarter(t *testing.T) {
	if testing.Short() {
		t.Skip("grades in a child process")
	}
	t.Parallel()
	for _, e := range grader.Gradable() {
		t.Run(e.ID, func(t *testing.T) {
			t.Parallel()
			var dirs []string
			for _, constant := range []bool{false, true} {
				dir := filepath.Join(t.TempDir(), map[bool]string{false: "zero", true: "constant"}[constant])
				writeReturning(t, filepath.Join(root(t), "exercises", e.ID), dir, constant)
				dirs = append(dirs, dir)
			}
			exs, err := grader.GradeVariants(context.Background(), grader.Options{
				Root: root(t), Exercises: []string{e.ID}, Seed: grader.DefaultSeed, NoBench: true, CheckTimeout: 20 * time.Second,
			}, dirs)
			if err != nil {
				t.Fatalf("GradeVariants: %v", err)
			}
			for i, ex := range exs {
				if ex.Status != report.Failed || ex.Score > ex.MaxScore/4 {
					for _, c := range ex.Checks {
						t.Logf("%s %s %v/%v: %s", c.ID, c.Status, c.Score, c.MaxScore, c.Message)
					}
					t.Errorf("%s: %s, %v of %v; want failed, at most a quarter", filepath.Base(dirs[i]), ex.Status, ex.Score, ex.MaxScore)
				}
			}
		})
	}
}

// writeReturning writes into dir the stub's files of from, each function
// whose body panics made to return instead: zero values, or, if constant,
// true for a bool and 1 for a number.
func writeReturning(t *testing.T, from, dir string, constant bool) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(from, "*.go"))
	for _, name := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || len(fn.Body.List) != 1 {
				continue
			}
			if call, ok := exprOf(fn.Body.List[0]).(*ast.CallExpr); !ok || ident(call.Fun) != "panic" {
				continue
			}
			ret := &ast.ReturnStmt{}
			if fn.Type.Results != nil {
				for _, r := range fn.Type.Results.List {
					for range max(1, len(r.Names)) {
						ret.Results = append(ret.Results, valueOf(r.Type, constant))
					}
				}
			}
			fn.Body.List = []ast.Stmt{ret}
		}
		var b bytes.Buffer
		if err := format.Node(&b, fset, f); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func exprOf(s ast.Stmt) ast.Expr {
	if e, ok := s.(*ast.ExprStmt); ok {
		return e.X
	}
	return nil
}

func ident(e ast.Expr) string {
	if i, ok := e.(*ast.Ident); ok {
		return i.Name
	}
	return ""
}

// valueOf is the value a function returns for a result of type typ: its
// zero value, or, if constant, true for a bool and 1 for a number.
func valueOf(typ ast.Expr, constant bool) ast.Expr {
	if constant {
		switch ident(typ) {
		case "bool":
			return ast.NewIdent("true")
		case "int", "uint32", "uint64", "float64":
			return &ast.BasicLit{Kind: token.INT, Value: "1"}
		}
	}
	return &ast.StarExpr{X: &ast.CallExpr{Fun: ast.NewIdent("new"), Args: []ast.Expr{typ}}}
}
