// Package buildout turns go build's output into what a learner reads, and
// says whose fault a failed build is: the one place that does either.
//
// The grader's build of the grading program, the lab's WebAssembly build
// of Yours (local and in class mode) and class mode's retry rule all read
// a build's output through it, so a message is cleaned and judged the same
// way everywhere.
package buildout

import (
	"fmt"
	"regexp"
	"strings"

	"ratelab/grader/report"
)

// MaxLines bounds the compiler's lines kept: the first errors are the ones
// to fix, and a crashing compiler prints thousands.
const MaxLines = 40

// Lines is out, go build's combined output, as the learner reads it: no
// package headings ("# ratelab/exercises/gcra") and no blank lines, each
// line passed through rename (nil keeps it), at most MaxLines lines. If
// nothing is left, it is fallback (the error of the command, say).
func Lines(out string, rename func(string) string, fallback string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(l, "# ") || strings.TrimSpace(l) == "" {
			continue
		}
		if rename != nil {
			l = rename(l)
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return fallback
	}
	return Cap(strings.Join(lines, "\n"))
}

// Cap keeps the first MaxLines lines of s, saying how many it dropped.
func Cap(s string) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= MaxLines {
		return s
	}
	return strings.Join(lines[:MaxLines], "") + fmt.Sprintf("… (%d more lines)", len(lines)-MaxLines)
}

// position matches a compiler message's "file.go:line:col: " (or
// "file.go:line: ").
var position = regexp.MustCompile(`\.go:\d+(:\d+)?: `)

// system matches the operating system's and the go command's own failures
// in a build's output.
var system = regexp.MustCompile(`(?i)too many open files|resource temporarily unavailable|no space left on device|` +
	`cannot allocate memory|fork/exec|executable file not found|permission denied|text file busy|^go: |signal: killed`)

// Contract is what the grader says of code whose exported API is not the
// course contract's: the learner's fault, though no line of theirs is named.
const Contract = "does not match the course contract"

// Fault says whose fault a build that failed with lines (as Lines leaves
// them) is: the learner's code where the compiler names a line of it or the
// API differs from the contract, the server's where the toolchain could not
// run (nothing said, too many open files, no space, killed), else the code.
func Fault(lines string) report.Fault {
	lines = strings.TrimSpace(lines)
	switch {
	case position.MatchString(lines) || strings.Contains(lines, Contract):
		return report.FaultCode
	case lines == "" || system.MatchString(lines):
		return report.FaultServer
	}
	return report.FaultCode
}
