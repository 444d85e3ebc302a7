package class

import (
	"regexp"
	"strings"

	"ratelab/grader"
	"ratelab/grader/report"
)

// learnerPaths rewrites the grading folder dir out of ex's messages: a
// compile error names the learner's file ("tokenbucket.go:3:12: ..."), not
// the server's temporary path.
func learnerPaths(ex *report.Exercise, dir string) {
	fix := func(s string) string {
		return strings.ReplaceAll(s, dir+"/", "")
	}
	ex.Message = fix(ex.Message)
	for i := range ex.Checks {
		ex.Checks[i].Message = fix(ex.Checks[i].Message)
	}
}

// compilerPosition matches a compiler message's "file.go:line:col:" (or
// "file.go:line:").
var compilerPosition = regexp.MustCompile(`\.go:\d+(:\d+)?: `)

// systemError matches the operating system's and the go command's own
// failures in a build's output.
var systemError = regexp.MustCompile(`(?i)too many open files|resource temporarily unavailable|no space left on device|` +
	`cannot allocate memory|fork/exec|executable file not found|permission denied|text file busy|^go: |signal: killed`)

// serverStart begins the messages the grader writes when it could not
// start the grading program: the operating system's refusals, never
// anything of the learner's (whose crashes and timeouts the grader words
// itself).
var serverStart = []string{"fork/exec ", "pipe: ", "pipe2: ", "open ", "could not prepare the sandbox: ", "exec: "}

// serverFault reports whether ex failed for the server's reasons, not the
// learner's: a build that failed with no compiler message (the toolchain
// could not run, "pipe2: too many open files", no space), or a grading
// program that could not be started. It says why.
func serverFault(ex *report.Exercise) (string, bool) {
	if ex.Status != report.Error {
		return "", false
	}
	if out, ok := grader.CompileError(ex); ok {
		out = strings.TrimSpace(out)
		if compilerPosition.MatchString(out) || strings.Contains(out, "does not match the course contract") {
			return "", false // the learner's code
		}
		if out == "" || systemError.MatchString(out) {
			return "the build could not run: " + firstLine(out), true
		}
		return "", false
	}
	msgs := []string{strings.TrimPrefix(ex.Message, "the grading program stopped before running any check: ")}
	for _, ch := range ex.Checks {
		if ch.Status == report.Error {
			msgs = append(msgs, ch.Message)
		}
	}
	for _, m := range msgs {
		for _, p := range serverStart {
			if strings.HasPrefix(m, p) {
				return "the grading program could not start: " + firstLine(m), true
			}
		}
	}
	return "", false
}

func firstLine(s string) string {
	if s == "" {
		return "(no output)"
	}
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
