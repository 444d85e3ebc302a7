// Package stubdoc writes the "# Grading" section that ends the package
// doc of every stub (exercises/<id>): how to grade it, what a failed check
// tells, and the speed budget. The budget's figures come from the grader
// itself: the suite's budget and what its benchmark times
// (check.Budget), the counted run's length (check.AllocCalls after
// check.AllocWarm) and the allocation rate allowed
// (check.MaxAllocsPerOp). So the section is written once, here, and no
// stub can say other than the grader does.
//
// make generate rewrites the sections (stubdoc/write);
// TestStubsSayWhatTheGraderDoes fails when one differs. Only the section
// is ever rewritten: from its heading to the package clause, comment lines
// only, so a learner's code in the same file is never touched.
package stubdoc

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"ratelab/grader/check"
)

// Heading is the line that opens the section; the section runs to the
// package clause.
const Heading = "// # Grading"

// width is the most characters a line of the section's prose takes after
// "// ".
const width = 73

// Section returns the Grading section of exercise id, whose speed budget
// is b (nil: it has none), as the comment lines that end its package doc.
func Section(id string, b *check.Budget) string {
	var w strings.Builder
	w.WriteString(Heading + "\n//\n")
	paragraph(&w, "From the repository root, run")
	code(&w, "make grade")
	paragraph(&w, "or, for this exercise only,")
	code(&w, "go run ./cmd/labserver grade --exercise "+id)
	paragraph(&w, "Each failed check names the mistake it found (only when the grader's "+
		"model of that mistake gives every answer yours gave) and the shortest "+
		"sequence of calls that shows it; one mistake costs its own points once.")
	if b != nil {
		per, pers := b.Per, b.Per+"s"
		paragraph(&w, fmt.Sprintf("There is also a speed budget: %s must take at most %s ns per %s "+
			"and allocate nothing in steady state. It is timed on traffic drawn afresh for "+
			"every run, and your decisions are checked on each run's traffic. Allocations "+
			"are counted on a run of their own, the same on every machine: %s %s after a "+
			"warm-up of %s, as a rate: at most one per %s %s. Amortised growth is allowed (a "+
			"map or a slice that grows as the traffic needs, a log grown a chunk at a "+
			"time); an allocation on every %s, or every few %s, is not.",
			b.What, number(b.Ns), per, number(check.AllocCalls), pers, number(check.AllocWarm),
			number(math.Round(1/check.MaxAllocsPerOp)), pers, per, pers))
	}
	s := w.String()
	return strings.TrimSuffix(s, "//\n")
}

// paragraph writes text wrapped at width, then an empty comment line.
func paragraph(w *strings.Builder, text string) {
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			w.WriteString("// " + line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	w.WriteString("// " + line + "\n//\n")
}

// code writes a code line (a tab after "//"), then an empty comment line.
func code(w *strings.Builder, line string) { w.WriteString("//\t" + line + "\n//\n") }

// number writes x, with commas between thousands if it is a whole number
// of five digits or more: 65,536.
func number(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if strings.Contains(s, ".") || len(s) <= 4 {
		return s
	}
	return check.Grouped(s, ',')
}

// Rewrite returns src, a Go file whose package doc ends with a Grading
// section, with that section replaced by section. Nothing else of src
// changes.
func Rewrite(src []byte, section string) ([]byte, error) {
	start := bytes.Index(src, []byte("\n"+Heading+"\n"))
	if start < 0 {
		return nil, fmt.Errorf("no %q line in the package doc", Heading)
	}
	start++
	end := bytes.Index(src[start:], []byte("\npackage "))
	if end < 0 {
		return nil, errors.New("no package clause after the " + Heading + " line")
	}
	end += start + 1
	for _, line := range strings.Split(strings.TrimSuffix(string(src[start:end]), "\n"), "\n") {
		if !strings.HasPrefix(line, "//") {
			return nil, fmt.Errorf("%q between the %s line and the package clause: the section must end the package doc", line, Heading)
		}
	}
	out := append([]byte{}, src[:start]...)
	out = append(out, section...)
	return append(out, src[end:]...), nil
}

// File returns the file of the stub in dir whose package doc holds the
// Grading section.
func File(dir string) (string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", err
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return "", err
		}
		if bytes.Contains(src, []byte("\n"+Heading+"\n")) {
			return name, nil
		}
	}
	return "", fmt.Errorf("no file of %s has a %q line ending its package doc", dir, Heading)
}

// Write rewrites the Grading section of the stub of exercise id under
// root (exercises/<id>), whose budget is b, and reports whether the file
// changed.
func Write(root, id string, b *check.Budget) (bool, error) {
	name, err := File(filepath.Join(root, "exercises", id))
	if err != nil {
		return false, err
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return false, err
	}
	out, err := Rewrite(src, Section(id, b))
	if err != nil {
		return false, fmt.Errorf("%s: %w", name, err)
	}
	if bytes.Equal(out, src) {
		return false, nil
	}
	return true, os.WriteFile(name, out, 0o644)
}
