// Package weekbuild builds the lessons' WebAssembly: for each week of the
// course, two builds of ./wasm with that week's simulations alone. A
// lesson's page draws the reference from week-N.wasm, which has the
// reference only, and runs the learner's code ("Yours"), in a worker once
// the learner asks for it, from yours-week-N.wasm, which has that week's
// exercises from exercises/ too. lab.wasm, the build of every simulation
// with exercises/ in it, is what the exercise pages replay a
// counterexample with.
//
// A week's reference build does not hold the learner's code, so no save
// changes it: `make wasm` builds it once, its compressed copies stay
// valid, and the browser keeps it in its cache across the live loop's
// rebuilds of Yours. A week's Yours build changes only when that week's
// exercises do, and compiles only them: code that does not build in
// another week's exercise does not stop it. Both are much smaller than
// lab.wasm: make bench prints the sizes of all three kinds.
//
// Which simulations a week has is set by the build constraints of ./wasm's
// files: with the tags oneweek and weekN only week N's parts are built
// (see wasm/doc.go); without oneweek, all of them.
package weekbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"ratelab/grader/buildout"
	"ratelab/lab/course"
)

// Name is the file name of week's build, as served under /static/.
func Name(week int) string { return fmt.Sprintf("week-%d.wasm", Of(week)) }

// Tags are the build tags of week's build: the reference only, and week's
// parts of ./wasm only.
func Tags(week int) string { return fmt.Sprintf("noyours,oneweek,week%d", Of(week)) }

// Weeks returns the weeks that have builds of their own, in order. A week
// whose lesson shows the same visualizations as an earlier week's (weeks 1
// and 2 both show the limiters) loads that week's builds (see Of): one
// file, fetched and cached once for both lessons, built once.
func Weeks() []int {
	var ns []int
	for _, w := range course.Weeks() {
		if Of(w.Number) == w.Number {
			ns = append(ns, w.Number)
		}
	}
	return ns
}

// Of returns the week whose builds week's lesson loads: the first week
// whose lesson shows the same visualizations (which ./wasm's build
// constraints give the same parts: the package's tests check it); week
// itself if the course has no such week (0: lab.wasm).
func Of(week int) int {
	shows := func(w course.Week) []string {
		var vs []string
		for _, m := range w.Lesson.Mounts {
			vs = append(vs, m.Viz)
		}
		slices.Sort(vs)
		return slices.Compact(vs)
	}
	weeks := course.Weeks()
	i := slices.IndexFunc(weeks, func(w course.Week) bool { return w.Number == week })
	if i < 0 {
		return week
	}
	first := slices.IndexFunc(weeks, func(w course.Week) bool { return slices.Equal(shows(w), shows(weeks[i])) })
	return weeks[first].Number
}

// IsWeek reports whether the course has week.
func IsWeek(week int) bool {
	return slices.ContainsFunc(course.Weeks(), func(w course.Week) bool { return w.Number == week })
}

// YoursWeeks returns the weeks of the Yours builds, in the order they are
// built and compressed: each week's (what a lesson runs), then 0, lab.wasm
// (every week's: what a replay runs).
func YoursWeeks() []int { return append(Weeks(), 0) }

// YoursName is the file name of week's build with the learner's code, as
// served under /static/; week 0 is lab.wasm, which has every week.
func YoursName(week int) string {
	if week == 0 {
		return "lab.wasm"
	}
	return fmt.Sprintf("yours-week-%d.wasm", Of(week))
}

// YoursTags are the build tags of week's Yours build: week's parts of
// ./wasm only, with exercises/ as Yours; none for week 0, every week.
func YoursTags(week int) string {
	if week == 0 {
		return ""
	}
	return fmt.Sprintf("oneweek,week%d", Of(week))
}

// Build builds week's reference build of the module at root into
// dir/Name(week), replacing the file only when the build succeeds. Its
// error holds the compiler's output (an *Error). Every build here is
// linked without the symbol table (-ldflags=-s: nothing reads it, and a
// panic's stack keeps its lines, from the runtime's own tables).
func Build(ctx context.Context, root, dir string, week int) (path string, err error) {
	return build(ctx, root, filepath.Join(dir, Name(week)), Tags(week))
}

// BuildYours builds week's Yours build (week 0: lab.wasm), with the
// learner's exercises/ of the module at root, into dir/YoursName(week),
// replacing the file only when the build succeeds. Its error holds the
// compiler's output (an *Error).
func BuildYours(ctx context.Context, root, dir string, week int) (path string, err error) {
	return build(ctx, root, filepath.Join(dir, YoursName(week)), YoursTags(week))
}

// BuildNoYours builds week's Yours build (week 0: lab.wasm) for learner's
// code that does not compile: with the tag noyours, the reference only,
// and a Yours that says the code does not build. A week's is its reference
// build, byte for byte.
func BuildNoYours(ctx context.Context, root, dir string, week int) (path string, err error) {
	return build(ctx, root, filepath.Join(dir, YoursName(week)), strings.TrimSuffix("noyours,"+YoursTags(week), ","))
}

// Error is a build that failed: the go command's error and its output.
type Error struct {
	Tags   string
	Err    error
	Output string
}

func (e *Error) Error() string {
	return fmt.Sprintf("GOOS=js GOARCH=wasm go build -ldflags=-s -tags %q ./wasm: %v\n%s", e.Tags, e.Err, e.Output)
}

// Lines are the compiler's lines of the failed build, as a learner reads
// them (grader/buildout), paths relative to the module's root.
func (e *Error) Lines() string { return buildout.Lines(e.Output, nil, e.Err.Error()) }

func build(ctx context.Context, root, path, tags string) (string, error) {
	tmp := path + ".tmp"
	cmd := exec.CommandContext(ctx, "go", "build", "-ldflags=-s", "-tags", tags, "-o", tmp, "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", &Error{Tags: tags, Err: err, Output: out.String()}
	}
	return path, os.Rename(tmp, path)
}

// YoursExercises returns the exercises week's Yours build (week 0:
// lab.wasm) compiles, sorted: the packages under exercises/ that its build
// of the module at root links. A save of one of them changes that build.
// The go command is asked once for each root and week: the live loop and
// class mode ask at every build, and their checkout does not change.
func YoursExercises(ctx context.Context, root string, week int) ([]string, error) {
	memo := fmt.Sprintf("%s\x00%d", root, week)
	linked.Lock()
	ids, ok := linked.exercises[memo]
	linked.Unlock()
	if ok {
		return ids, nil
	}
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-tags", YoursTags(week), "-f", "{{.ImportPath}}", "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps -tags %q ./wasm: %v\n%s", YoursTags(week), err, stderr.String())
	}
	for line := range strings.Lines(string(out)) {
		if id, ok := strings.CutPrefix(strings.TrimSpace(line), "ratelab/exercises/"); ok && !strings.Contains(id, "/") {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	linked.Lock()
	linked.exercises[memo] = ids
	linked.Unlock()
	return ids, nil
}

// linked remembers YoursExercises' answers, by root and week.
var linked = struct {
	sync.Mutex
	exercises map[string][]string
}{exercises: map[string][]string{}}

// Rebuilt returns the weeks of the Yours builds (YoursWeeks) that a save
// of exercises changes: each week's whose build compiles one of them,
// then 0, lab.wasm, which compiles them all.
func Rebuilt(ctx context.Context, root string, exercises []string) ([]int, error) {
	var weeks []int
	for _, week := range Weeks() {
		ids, err := YoursExercises(ctx, root, week)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(exercises, func(id string) bool { return slices.Contains(ids, id) }) {
			weeks = append(weeks, week)
		}
	}
	return append(weeks, 0), nil
}

// BuildAll builds every build into dir, as `make wasm` does (see
// internal/weekbuild/write): each week's reference build, each week's
// Yours build, then lab.wasm, telling out of each file and its size. A
// Yours build whose exercises do not compile is built with the reference
// only (BuildNoYours), and out is told so: the lab is served whatever the
// learner's code, and its Yours says the code does not build. noYours are
// the weeks of those builds (0: lab.wasm).
func BuildAll(ctx context.Context, root, dir string, out io.Writer) (noYours []int, err error) {
	built := func(path string, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %d bytes\n", path, fi.Size())
		return nil
	}
	for _, week := range Weeks() {
		if err := built(Build(ctx, root, dir, week)); err != nil {
			return nil, err
		}
	}
	for _, week := range YoursWeeks() {
		path, err := BuildYours(ctx, root, dir, week)
		if be := (*Error)(nil); errors.As(err, &be) {
			noYours = append(noYours, week)
			what := fmt.Sprintf("week %d's exercises do not build: its lesson's Yours", week)
			if week == 0 {
				what = "exercises/ does not build: a replay's Yours"
			}
			fmt.Fprintf(out, "%s will say so (run make grade to see why)\n", what)
			path, err = BuildNoYours(ctx, root, dir, week)
		}
		if err := built(path, err); err != nil {
			return nil, err
		}
	}
	return noYours, nil
}
