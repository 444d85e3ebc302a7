package mutate

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
)

// Mutant is one mutation of a package: one change at one place.
type Mutant struct {
	File      string   // the file's name in the package's folder
	Line, Col int      // where the change starts (1-based)
	Operator  Operator // what kind of change
	// Offset and End are the bytes of File that From occupies; the mutant's
	// source is File with those bytes replaced by To.
	Offset, End int
	From, To    string
	// Before and After are the lines the change is on, before and after
	// it, with runs of white space made one space: the diff line.
	Before, After string
	// Stillborn, if not "", is why the mutant does not compile (go/types'
	// first error): it is not graded.
	Stillborn string
	// blank are the offsets of import paths that m's change left unused,
	// which its source imports as _ (see settle).
	blank []int
}

// Pos is where the mutant is, as file:line:col.
func (m Mutant) Pos() string { return fmt.Sprintf("%s:%d:%d", m.File, m.Line, m.Col) }

// String is the mutant's position and operator.
func (m Mutant) String() string { return m.Pos() + " " + string(m.Operator) }

// Diff is the mutant's change as one line: the line before, an arrow, the
// line after.
func (m Mutant) Diff() string {
	after := m.After
	if after == "" {
		after = "(removed)"
	}
	return m.Before + "  →  " + after
}

// Package is the non-test Go files of one package's folder, parsed and
// type-checked, whose mutants Mutants lists.
type Package struct {
	Dir   string
	names []string // the files' names, sorted
	src   map[string][]byte
	fset  *token.FileSet
	files map[string]*ast.File
	info  *types.Info
	pkg   *types.Package
	imp   types.Importer
}

// Load reads, parses and type-checks the package in dir (its non-test .go
// files). Imports are type-checked from the export data the go command
// gives, so the package may import only what it could when built.
func Load(dir string) (*Package, error) {
	return load(dir, importer.Default())
}

func load(dir string, imp types.Importer) (*Package, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	p := &Package{Dir: dir, src: map[string][]byte{}, fset: token.NewFileSet(), files: map[string]*ast.File{}, imp: imp}
	for _, path := range paths {
		name := filepath.Base(path)
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(p.fset, name, b, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.names = append(p.names, name)
		p.src[name], p.files[name] = b, f
	}
	if len(p.names) == 0 {
		return nil, fmt.Errorf("%s: no Go files", dir)
	}
	slices.Sort(p.names)
	p.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	var errs []types.Error
	if p.pkg, errs = p.check(p.files, p.info); len(errs) > 0 {
		return nil, fmt.Errorf("%s does not type-check: %w", dir, errs[0])
	}
	return p, nil
}

// check type-checks files as one package and returns its errors.
func (p *Package) check(files map[string]*ast.File, info *types.Info) (*types.Package, []types.Error) {
	list := make([]*ast.File, 0, len(p.names))
	for _, n := range p.names {
		list = append(list, files[n])
	}
	var errs []types.Error
	conf := types.Config{Importer: p.imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			errs = append(errs, te)
		} else {
			errs = append(errs, types.Error{Msg: err.Error()})
		}
	}}
	pkg, _ := conf.Check(list[0].Name.Name, p.fset, list, info)
	return pkg, errs
}

// Files returns the names of the package's files, sorted.
func (p *Package) Files() []string { return slices.Clone(p.names) }

// Mutants lists every mutant of the package, file by file (by name), then
// by position, then in the order of Operators. Each is type-checked: one
// that does not compile says so in Stillborn.
func (p *Package) Mutants() []Mutant {
	var out []Mutant
	for _, name := range p.names {
		ms := p.sites(name)
		slices.SortStableFunc(ms, func(a, b Mutant) int {
			return cmp.Or(cmp.Compare(a.Offset, b.Offset), cmp.Compare(slices.Index(Operators, a.Operator), slices.Index(Operators, b.Operator)))
		})
		for i := range ms {
			p.settle(&ms[i])
		}
		out = append(out, ms...)
	}
	return out
}

// sites lists the mutants of one file, in the order the syntax tree is
// walked.
func (p *Package) sites(name string) []Mutant {
	var out []Mutant
	var stack []ast.Node
	ast.Inspect(p.files[name], func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.BinaryExpr:
			out = append(out, p.swapped(name, n.OpPos, n.Op, p.numeric(n.X))...)
		case *ast.UnaryExpr:
			if n.Op == token.SUB && p.numeric(n.X) {
				out = append(out, p.mutant(name, InvertNegatives, n.OpPos, n.OpPos+1, ""))
			}
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
				out = append(out, p.swapped(name, n.TokPos, n.Tok, p.numeric(n.Lhs[0]))...)
			}
		case *ast.IncDecStmt:
			out = append(out, p.swapped(name, n.TokPos, n.Tok, true)...)
		case *ast.BranchStmt:
			if n.Label == nil && inLoop(stack) {
				out = append(out, p.swapped(name, n.TokPos, n.Tok, true)...)
			}
		case *ast.BlockStmt:
			out = append(out, p.removals(name, n.List)...)
		case *ast.CaseClause:
			out = append(out, p.removals(name, n.Body)...)
		case *ast.CommClause:
			out = append(out, p.removals(name, n.Body)...)
		}
		return true
	})
	return out
}

// swapped returns the mutants that replace the token tok at pos by
// another, one per operator that has a replacement for it (those that
// apply to numbers only if numeric).
func (p *Package) swapped(name string, pos token.Pos, tok token.Token, numeric bool) []Mutant {
	var out []Mutant
	for _, op := range Operators {
		to, ok := swaps[op][tok]
		if !ok || (numericOnly[op] && !numeric) {
			continue
		}
		out = append(out, p.mutant(name, op, pos, pos+token.Pos(len(tok.String())), to.String()))
	}
	return out
}

// removals returns the RemoveStatement mutants of a list of statements:
// one per assignment (not a declaration, not to _ alone), increment or
// decrement, and expression statement.
func (p *Package) removals(name string, list []ast.Stmt) []Mutant {
	var out []Mutant
	for _, s := range list {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE || allBlank(s.Lhs) {
				continue
			}
		case *ast.IncDecStmt, *ast.ExprStmt:
		default:
			continue
		}
		out = append(out, p.mutant(name, RemoveStatement, s.Pos(), s.End(), ""))
	}
	return out
}

func allBlank(exprs []ast.Expr) bool {
	for _, e := range exprs {
		if id, ok := e.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	return true
}

// inLoop reports whether the break or continue at the top of stack is
// inside a loop of its own function, so that the other one compiles there
// too (a continue of the loop for a break of a switch, say).
func inLoop(stack []ast.Node) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
	}
	return false
}

// numeric reports whether e is a number (not a string, not a bool).
func (p *Package) numeric(e ast.Expr) bool {
	t := p.info.Types[e].Type
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// mutant returns the mutant replacing the bytes of file name from pos to
// end by to.
func (p *Package) mutant(name string, op Operator, pos, end token.Pos, to string) Mutant {
	at := p.fset.Position(pos)
	m := Mutant{File: name, Line: at.Line, Col: at.Column, Operator: op, Offset: at.Offset, End: p.fset.Position(end).Offset, To: to}
	m.From = string(p.src[name][m.Offset:m.End])
	p.describe(&m)
	return m
}

// describe sets m's diff line, Before and After, from its change.
func (p *Package) describe(m *Mutant) {
	src := p.src[m.File]
	lineStart := bytes.LastIndexByte(src[:m.Offset], '\n') + 1
	lineEnd := len(src)
	if i := bytes.IndexByte(src[m.End:], '\n'); i >= 0 {
		lineEnd = m.End + i
	}
	m.Before = oneLine(string(src[lineStart:lineEnd]))
	m.After = oneLine(string(src[lineStart:m.Offset]) + m.To + string(src[m.End:lineEnd]))
}

// oneLine makes every run of white space in s one space, and trims it.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Source returns the text of m's file with m applied.
func (p *Package) Source(m Mutant) []byte {
	src := p.src[m.File]
	out := make([]byte, 0, len(src)+len(m.To)+2*len(m.blank))
	last := 0
	for _, off := range m.blank { // before m.Offset: imports come first
		out = append(out, src[last:off]...)
		out = append(out, "_ "...)
		last = off
	}
	out = append(out, src[last:m.Offset]...)
	out = append(out, m.To...)
	return append(out, src[m.End:]...)
}

// settle type-checks the package with m applied and sets m.Stillborn to
// the first error, if any. A removed statement may have been the only use
// of a local variable or of an import: the compiler would refuse the
// mutant for that alone, so settle keeps the variable used (To becomes
// "_ = x") and the import blank (_ "math") instead, and checks again.
func (p *Package) settle(m *Mutant) {
	var keep []string
	for {
		f, err := parser.ParseFile(p.fset, m.File, p.Source(*m), parser.SkipObjectResolution)
		if err != nil {
			m.Stillborn = err.Error()
			return
		}
		files := maps.Clone(p.files)
		files[m.File] = f
		_, errs := p.check(files, nil)
		if len(errs) == 0 {
			return
		}
		fixed := false
		for _, e := range errs {
			at := p.fset.Position(e.Pos)
			switch {
			case at.Filename != m.File:
			case strings.Contains(e.Msg, "declared and not used"):
				if name := identAt(p.Source(*m), at.Offset); name != "" && !slices.Contains(keep, name) {
					keep, fixed = append(keep, name), true
				}
			case strings.Contains(e.Msg, "imported") && strings.Contains(e.Msg, "not used"):
				if off, ok := p.importAt(m.File, at.Offset); ok && !slices.Contains(m.blank, off) {
					m.blank, fixed = append(m.blank, off), true
				}
			}
		}
		if !fixed {
			m.Stillborn = errs[0].Error()
			return
		}
		slices.Sort(m.blank)
		if len(keep) > 0 {
			m.To = strings.Repeat("_, ", len(keep)-1) + "_ = " + strings.Join(keep, ", ")
		}
		p.describe(m)
	}
}

// identAt returns the identifier that starts at offset off of src, or "".
func identAt(src []byte, off int) string {
	end := off
	for end < len(src) && (src[end] == '_' || unicode.IsLetter(rune(src[end])) || unicode.IsDigit(rune(src[end]))) {
		end++
	}
	return string(src[off:end])
}

// importAt returns the offset of the path of the import of file name that
// an error at offset off is about, if it has no name of its own (an import
// that has one is left to fail).
func (p *Package) importAt(name string, off int) (int, bool) {
	for _, s := range p.files[name].Imports {
		start := p.fset.Position(s.Pos()).Offset
		if s.Name == nil && off >= start && off < p.fset.Position(s.End()).Offset {
			return p.fset.Position(s.Path.Pos()).Offset, true
		}
	}
	return 0, false
}

// Write writes the package, with m applied, into dir (which must exist):
// every non-test .go file, by its own name.
func (p *Package) Write(m Mutant, dir string) error {
	for _, n := range p.names {
		src := p.src[n]
		if n == m.File {
			src = p.Source(m)
		}
		if err := os.WriteFile(filepath.Join(dir, n), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}
