// Package fingerprint tells code copied and disguised from its original:
// a submission's fingerprint (Of) ignores names, comments, formatting and
// the order of declarations, and Solutions holds the reference solutions'.
package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"ratelab/internal/store"
)

// Of hashes the syntax trees of a submission's files with comments,
// identifier names, formatting, the order of the top-level declarations and
// the files they are in ignored: code copied and then renamed, reformatted,
// commented or reordered has the fingerprint of the original. Each
// declaration keeps its shape, its literals and operators, and which of its
// identifiers are the same one. It returns "" if a file does not parse.
//
// The fingerprint flags a submission for the instructor to judge (the
// reference solution, or another learner's code); nothing is refused on it.
func Of(files []store.File) string {
	fset := token.NewFileSet()
	var decls []string
	for _, f := range files {
		if strings.HasSuffix(f.Name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f.Name, f.Content, parser.SkipObjectResolution)
		if err != nil {
			return ""
		}
		for _, d := range file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			decls = append(decls, shape(d))
		}
	}
	if len(decls) == 0 {
		return ""
	}
	sort.Strings(decls)
	h := sha256.New()
	for _, d := range decls {
		fmt.Fprintf(h, "%d:%s\n", len(d), d)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// shape writes a declaration's tree: node types, operators, literals, and
// identifiers numbered in order of first appearance.
func shape(n ast.Node) string {
	var b strings.Builder
	ids := map[string]int{}
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			b.WriteByte(')')
			return false
		}
		fmt.Fprintf(&b, "(%T", n)
		switch n := n.(type) {
		case *ast.Ident:
			id, ok := ids[n.Name]
			if !ok {
				id = len(ids)
				ids[n.Name] = id
			}
			fmt.Fprintf(&b, " %d", id)
		case *ast.BasicLit:
			fmt.Fprintf(&b, " %s %s", n.Kind, n.Value)
		case *ast.BinaryExpr:
			b.WriteString(" " + n.Op.String())
		case *ast.UnaryExpr:
			b.WriteString(" " + n.Op.String())
		case *ast.AssignStmt:
			b.WriteString(" " + n.Tok.String())
		case *ast.IncDecStmt:
			b.WriteString(" " + n.Tok.String())
		case *ast.BranchStmt:
			b.WriteString(" " + n.Tok.String())
		case *ast.GenDecl:
			b.WriteString(" " + n.Tok.String())
		case *ast.RangeStmt:
			b.WriteString(" " + n.Tok.String())
		case *ast.ChanType:
			fmt.Fprintf(&b, " %d", n.Dir)
		}
		return true
	})
	return b.String()
}

// Solutions caches the reference solutions' fingerprints
// (solutions/<exercise> of the module at Root). It is safe for concurrent
// use.
type Solutions struct {
	Root       string
	mu         sync.Mutex
	byExercise map[string]string
}

// Of returns the fingerprint of the exercise's reference solution, "" if
// it cannot be read.
func (f *Solutions) Of(exercise string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fp, ok := f.byExercise[exercise]; ok {
		return fp
	}
	if f.byExercise == nil {
		f.byExercise = map[string]string{}
	}
	var files []store.File
	paths, _ := filepath.Glob(filepath.Join(f.Root, "solutions", filepath.Base(exercise), "*.go"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		files = append(files, store.File{Name: filepath.Base(p), Content: b})
	}
	fp := ""
	if len(files) > 0 {
		fp = Of(files)
	}
	f.byExercise[exercise] = fp
	return fp
}
