package class

import (
	"strings"

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
	ex.Compiler = fix(ex.Compiler)
	for i := range ex.Checks {
		ex.Checks[i].Message = fix(ex.Checks[i].Message)
	}
}

// serverFault reports whether ex failed for the server's reasons, not the
// learner's (report.FaultServer: the toolchain could not run, or the
// grading program could not start), and says why.
func serverFault(ex *report.Exercise) (string, bool) {
	if ex.Status != report.Error || ex.Fault != report.FaultServer {
		return "", false
	}
	if out, ok := ex.CompilerLines(); ok {
		return "the build could not run: " + firstLine(strings.TrimSpace(out)), true
	}
	return "the grading program could not start: " + firstLine(ex.Message), true
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
