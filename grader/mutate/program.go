package mutate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"ratelab/grader"
	"time"

	"ratelab/grader/build"
	"ratelab/grader/mutate/hunt"
)

// huntDir is the hunt program's main package; the overlay adds the
// rewritten adapter beside its main.go (see buildHunt).
const huntDir = "grader/mutate/hunt/program"

// adapter returns the source of exercise id's adapter (grader/adapter/<id>
// in the module at root, see package ratelab/grader/adapter) as the grader
// rewrites it for the package exercises/<id>, then rewritten for a hunt
// (see rewriteAdapter). It also returns the import path of the suite. The
// mutant is built as the grader builds it, through the same adapter.
func adapter(root, id string) (src, suite string, err error) {
	b, err := os.ReadFile(filepath.Join(root, "grader", "adapter", id, "adapter.go"))
	if err != nil {
		return "", "", fmt.Errorf("no adapter for %q: %w", id, err)
	}
	b, err = grader.RewriteAdapter(b, "main", "ratelab/exercises/"+id, id)
	if err != nil {
		return "", "", fmt.Errorf("the adapter of %s: %w", id, err)
	}
	return rewriteAdapter(string(b))
}

// rewriteAdapter replaces the adapter's harness.Register(name,
// suite.API(x)) by run = func() { hunt.Main(suite.Checks, x) }, run being
// what the hunt program's main calls, and imports package hunt.
func rewriteAdapter(src string) (string, string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "adapter.go", src, parser.SkipObjectResolution)
	if err != nil {
		return "", "", fmt.Errorf("the adapter does not parse: %w", err)
	}
	var suite string
	harness := false
	for _, s := range f.Imports {
		path, _ := strconv.Unquote(s.Path.Value)
		switch {
		case s.Name != nil && s.Name.Name == "suite":
			suite = path
		case path == "ratelab/grader/harness" && s.Name == nil:
			harness = true
		}
	}
	var call *ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if ok && isSel(c.Fun, "harness", "Register") && len(c.Args) == 2 {
			if inner, ok := c.Args[1].(*ast.CallExpr); ok && isSel(inner.Fun, "suite", "API") && len(inner.Args) == 1 {
				call = c
			}
		}
		return call == nil
	})
	if call == nil || suite == "" || !harness || len(f.Decls) == 0 {
		return "", "", fmt.Errorf("the adapter does not read harness.Register(name, suite.API(impl)) with suite and harness imported")
	}
	imports, ok := f.Decls[0].(*ast.GenDecl)
	if !ok || imports.Tok != token.IMPORT || !imports.Lparen.IsValid() {
		return "", "", fmt.Errorf("the adapter does not open with a parenthesized import block")
	}
	arg := call.Args[1].(*ast.CallExpr).Args[0]
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	at := off(imports.Lparen) + 1
	out := src[:at] + "\n\t" + strconv.Quote(huntPath) + src[at:off(call.Pos())] +
		"run = func() { hunt.Main(suite.Checks, " + src[off(arg.Pos()):off(arg.End())] + ") }" + src[off(call.End()):]
	return out + "\nvar _ = harness.Register\n", suite, nil
}

// huntPath is the import path of package hunt.
const huntPath = "ratelab/grader/mutate/hunt"

func isSel(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != name {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// buildHunt builds the hunt program of exercise id over the package in
// dir (the mutant) into bin, in the module at root, with go build -overlay
// as the grader builds its child: dir's files stand in for
// exercises/<id>, and nothing is written into the module.
func buildHunt(ctx context.Context, root, id, dir, bin string) error {
	src, _, err := adapter(root, id)
	if err != nil {
		return err
	}
	gen := filepath.Join(filepath.Dir(bin), "gen")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		return err
	}
	replace := map[string]string{}
	p := filepath.Join(gen, "adapter.go")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		return err
	}
	replace[filepath.Join(root, huntDir, "adapter.go")] = p
	pkgDir := filepath.Join(root, "exercises", id)
	old, _ := filepath.Glob(filepath.Join(pkgDir, "*.go"))
	for _, f := range old {
		if !strings.HasSuffix(f, "_test.go") {
			replace[f] = ""
		}
	}
	srcs, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range srcs {
		replace[filepath.Join(pkgDir, filepath.Base(f))] = f
	}
	ov, _ := json.Marshal(map[string]any{"Replace": replace})
	ovPath := filepath.Join(gen, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-overlay", ovPath, "-o", bin, "./"+huntDir)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", build.NoModuleIndex())
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the hunt program: %v\n%s", err, out)
	}
	return nil
}

// runHunt runs a hunt program and returns what it found and the CPU time
// it took. The program ends itself on a hung script (its watchdog);
// timeout bounds the whole run.
func runHunt(ctx context.Context, bin string, scripts int, seed int64, watchdog, timeout time.Duration) (r hunt.Result, cpu time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-scripts", strconv.Itoa(scripts), "-seed", strconv.FormatInt(seed, 10), "-watchdog", watchdog.String())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	if ctx.Err() != nil {
		return hunt.Result{}, cpu, fmt.Errorf("the hunt did not finish within %s", timeout)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if jerr := json.Unmarshal([]byte(lines[len(lines)-1]), &r); jerr != nil {
		// The program died without a word: the mutant crashed it (a
		// stack overflow, a panic in a goroutine of its own), which the
		// reference never does.
		return hunt.Result{Killed: true, Crashed: true, Got: fmt.Sprintf("%v: %s", err, lastLines(errOut.String(), 6))}, cpu, nil
	}
	if r.Error != "" {
		return r, cpu, fmt.Errorf("the hunt could not run: %s", r.Error)
	}
	return r, cpu, nil
}

// lastLines keeps the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
