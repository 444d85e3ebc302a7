package class

import (
	"fmt"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"ratelab/grader"
	"ratelab/internal/store"
)

// Limits bound an upload. The zero value means the defaults below.
type Limits struct {
	MaxFiles      int   // files per submission; 0 means 16
	MaxFileBytes  int64 // bytes per file; 0 means 64 KiB
	MaxTotalBytes int64 // bytes of all files; 0 means 256 KiB
}

func (l Limits) withDefaults() Limits {
	if l.MaxFiles <= 0 {
		l.MaxFiles = 16
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = 64 << 10
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = 256 << 10
	}
	return l
}

// Allowed lists the only packages a submission may import: enough to write
// any limiter of the course, and nothing that reaches the operating
// system, the network, the runtime's internals or memory outside the type
// system.
var Allowed = []string{
	"bytes", "cmp", "container/heap", "container/list", "container/ring", "errors", "fmt",
	"iter", "maps", "math", "math/big", "math/bits", "slices", "sort", "strconv", "strings",
	"sync", "sync/atomic", "time", "unicode", "unicode/utf8",
}

// forbidden explains why the usual suspects are refused.
var forbidden = map[string]string{
	"unsafe":  "it reaches memory outside the type system",
	"os":      "it reaches files, processes and the environment",
	"os/exec": "it starts processes",
	"net":     "it reaches the network",
	"syscall": "it calls the operating system directly",
	"runtime": "it controls the Go runtime",
	"reflect": "it reaches unexported state",
	"C":       "cgo is not allowed",
}

// fileName is a plain Go file name: no folder, no "..".
var fileName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*\.go$`)

// Validate checks an upload of exercise's files before it is queued and
// returns every problem as a sentence a learner understands, or nil.
func Validate(exercise string, files []store.File, lim Limits) []string {
	return validate(exercise, files, lim, true)
}

// ValidateDraft checks a draft before it is saved: Validate's rules on
// names, counts and sizes, not on the source. A draft is saved as the
// learner types, half a line at a time: code that does not parse yet, or
// an import being typed, must still be saved, or what was typed is lost.
// Validate judges the source when the draft is checked or submitted.
func ValidateDraft(exercise string, files []store.File, lim Limits) []string {
	return validate(exercise, files, lim, false)
}

// validate is Validate, reading the source (parse, package clause,
// imports, directives) only if source is set.
func validate(exercise string, files []store.File, lim Limits, source bool) []string {
	lim = lim.withDefaults()
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if !Gradable(exercise) {
		add("there is no exercise called %q to submit (the exercises are %s)", exercise, strings.Join(exerciseIDs(), ", "))
		return problems
	}
	if len(files) == 0 {
		add("no files: upload the .go files of exercises/%s (not its _test.go files)", exercise)
		return problems
	}
	if len(files) > lim.MaxFiles {
		add("%d files: a submission holds at most %d", len(files), lim.MaxFiles)
		return problems
	}
	var total int64
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		total += int64(len(f.Content))
		if p := NameProblem(exercise, f.Name); p != "" {
			problems = append(problems, p)
			continue
		}
		switch {
		case seen[f.Name]:
			add("%s: uploaded twice", f.Name)
			continue
		case int64(len(f.Content)) > lim.MaxFileBytes:
			add("%s: %d bytes, over the limit of %d bytes per file", f.Name, len(f.Content), lim.MaxFileBytes)
			continue
		}
		seen[f.Name] = true
		if source {
			problems = append(problems, checkSource(fset, exercise, f)...)
		}
	}
	if total > lim.MaxTotalBytes {
		add("%d bytes in all, over the limit of %d bytes per submission", total, lim.MaxTotalBytes)
	}
	return problems
}

// checkSource parses one file and checks its package clause, its imports
// and its comments (no //go: directives).
func checkSource(fset *token.FileSet, exercise string, f store.File) []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	af, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments)
	if err != nil {
		add("%s does not parse: %v", f.Name, err)
		return problems
	}
	if af.Name.Name != exercise {
		add("%s: package %s, want package %s", f.Name, af.Name.Name, exercise)
	}
	for _, imp := range af.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if slices.Contains(Allowed, path) {
			continue
		}
		why := forbidden[path]
		if why == "" {
			for p, w := range forbidden {
				if strings.HasPrefix(path, p+"/") {
					why = w
				}
			}
		}
		if why == "" {
			why = "a submission may import only " + strings.Join(Allowed, ", ")
		}
		add("%s: import %q is not allowed: %s", pos(fset, imp.Pos()), path, why)
	}
	for _, cg := range af.Comments {
		for _, c := range cg.List {
			if isConstraint(c.Text) {
				add("%s: the build constraint %q is not allowed in a submission: its files are exactly those the grading and Yours (in the browser) both compile; remove the line", pos(fset, c.Pos()), c.Text)
				continue
			}
			if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "//line ") || strings.HasPrefix(c.Text, "/*line ") {
				d, _, _ := strings.Cut(c.Text, " ")
				add("%s: the directive %s is not allowed in a submission", pos(fset, c.Pos()), d)
			}
		}
	}
	return problems
}

// isConstraint reports whether a comment is a build constraint line,
// //go:build or // +build, wherever it is in the file (go/build reads them
// in a file's header only; a submission has none anywhere).
func isConstraint(text string) bool {
	if constraint.IsGoBuild(text) || constraint.IsPlusBuild(text) {
		return true
	}
	rest, ok := strings.CutPrefix(text, "//")
	return ok && (strings.HasPrefix(strings.TrimSpace(rest), "+build") || strings.HasPrefix(strings.TrimSpace(rest), "go:build"))
}

func pos(fset *token.FileSet, p token.Pos) string {
	q := fset.Position(p)
	return fmt.Sprintf("%s:%d", q.Filename, q.Line)
}

// Gradable reports whether id is an exercise the grader can grade.
func Gradable(id string) bool { return slices.Contains(exerciseIDs(), id) }

func exerciseIDs() []string {
	var ids []string
	for _, e := range grader.Gradable() {
		ids = append(ids, e.ID)
	}
	return ids
}
