package class

import (
	"fmt"
	"go/build"
	"io"
	"strings"
)

// NameProblem returns why name may not be one of exercise's files in an
// upload (a folder or "..", a test file, not a plain .go name, a name that
// builds for one platform only), as a sentence a learner understands, or
// "" if it may. These are Validate's
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
	if suffix := platformSuffix(name); suffix != "" {
		return fmt.Sprintf("%s: a name ending in %s.go is compiled for that platform only, so the grading (on the server's system) and Yours (in the browser, js/wasm) would build different files: rename it without %s, and keep code for one platform out of a submission", name, suffix, suffix)
	}
	return ""
}

// noPlatform is a build context of no real GOOS nor GOARCH: go/build
// matches a file name against it only if the name ends in no operating
// system and no architecture go/build knows (_js, _wasm, _linux, _amd64,
// _windows_arm64, …). Files are never read: the content it is handed
// has no build constraint (Validate refuses those apart).
var noPlatform = build.Context{
	GOOS: "none", GOARCH: "none", Compiler: "gc",
	OpenFile: func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("package p\n")), nil },
}

// platformSuffix returns the GOOS or GOARCH suffix of a .go file's name
// ("_js", "_linux_amd64"), or "" if it has none.
func platformSuffix(name string) string {
	if ok, err := noPlatform.MatchFile(".", name); ok || err != nil {
		return ""
	}
	stem := strings.TrimSuffix(name, ".go")
	// One element (_js, _amd64) or two (_linux_amd64): the shortest
	// whose removal leaves a name that matches.
	for cut := strings.LastIndex(stem, "_"); cut > 0; cut = strings.LastIndex(stem[:cut], "_") {
		if ok, _ := noPlatform.MatchFile(".", stem[:cut]+".go"); ok {
			return stem[cut:]
		}
	}
	return stem[strings.LastIndex(stem, "_"):]
}

// DefaultLimits returns the limits the zero Limits stands for.
func DefaultLimits() Limits { return Limits{}.withDefaults() }
