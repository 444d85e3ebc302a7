package class

import (
	"fmt"
	"strings"
)

// NameProblem returns why name may not be one of exercise's files in an
// upload (a folder or "..", a test file, not a plain .go name), as a
// sentence a learner understands, or "" if it may. These are Validate's
// rules for names, for callers that check names alone: the single-learner
// lab's files API, which writes into exercises/<name>/ only files that
// would be accepted as a submission's.
func NameProblem(exercise, name string) string {
	switch {
	case strings.ContainsAny(name, `/\`) || strings.Contains(name, ".."):
		return fmt.Sprintf("%q: a file name may not contain a folder, a slash or \"..\": upload the files of exercises/%s themselves", name, exercise)
	case strings.HasSuffix(name, "_test.go"):
		return fmt.Sprintf("%s: test files are not submitted (the grader brings its own checks)", name)
	case !fileName.MatchString(name):
		return fmt.Sprintf("%q: only .go files with plain names (letters, digits, _ . -) are accepted", name)
	}
	return ""
}

// DefaultLimits returns the limits the zero Limits stands for.
func DefaultLimits() Limits { return Limits{}.withDefaults() }
