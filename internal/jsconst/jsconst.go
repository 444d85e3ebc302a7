// Package jsconst keeps a JavaScript table of constants in step with the
// Go constants it copies: the browser's scripts match event types by their
// strings, and a test compares the two lists with what this package reads.
package jsconst

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
)

// GoStrings returns, sorted, the values of the constants of type typ
// declared in files that belong to package pkg (files of other packages,
// such as external tests, are passed over). A constant of typ that is not
// a string literal is an error.
func GoStrings(files []string, pkg, typ string) ([]string, error) {
	fset := token.NewFileSet()
	var out []string
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		if f.Name.Name != pkg {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != typ {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return nil, fmt.Errorf("%s: a %s constant that is not a string literal", fset.Position(v.Pos()), typ)
					}
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, s)
				}
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

var entry = regexp.MustCompile(`(?m)^\s*[A-Za-z_]+:\s*"([^"]*)",?\s*(//.*)?$`)

// JSTable returns, sorted, the string values of the table name in the
// JavaScript file path: an object literal declared `var name = {…};` or
// `const name = {…};`, one `KEY: "value",` a line (a comment may follow).
func JSTable(path, name string) ([]string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	table := regexp.MustCompile(`(?s)(?:var|const) ` + regexp.QuoteMeta(name) + ` = \{(.*?)\};`)
	m := table.FindSubmatch(src)
	if m == nil {
		return nil, fmt.Errorf("%s has no table `var %s = { ... };` or `const %s = { ... };`", path, name, name)
	}
	var out []string
	for _, e := range entry.FindAllSubmatch(m[1], -1) {
		out = append(out, string(e[1]))
	}
	slices.Sort(out)
	return out, nil
}
