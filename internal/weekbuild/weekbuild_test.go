package weekbuild

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ratelab/internal/modcopy"
	"ratelab/lab/course"
)

// simulation is the lab package each visualization draws, by course.Mount's
// Viz: a week's build must have those of its lesson's mounts and no other.
var simulation = map[string]string{
	"limiters":  "ratelab/lab/sim",
	"hierarchy": "ratelab/lab/hierarchy",
	"fairqueue": "ratelab/lab/fairqueue",
	"gateway":   "ratelab/lab/gateway",
	"governor":  "ratelab/lab/governor",
	"gradient2": "ratelab/lab/gradient2",
	"throttle":  "ratelab/lab/throttle",
	"breaker":   "ratelab/lab/breaker",
}

// deps lists the packages a build of ./wasm with tags imports, each with
// the packages it imports itself.
func deps(t *testing.T, tags string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-tags", tags, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./wasm")
	cmd.Dir = moduleRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps -tags %q ./wasm: %v", tags, err)
	}
	imports := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		imports[f[0]] = f[1:]
	}
	return imports
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// Each week's build has its lesson's simulations, none of another week's,
// not the replays and not the learner's code.
func TestEachWeekBuildsOnlyItsSimulations(t *testing.T) {
	for _, w := range course.Weeks() {
		got := deps(t, Tags(w.Number))
		var want []string
		for _, m := range w.Lesson.Mounts {
			pkg, ok := simulation[m.Viz]
			if !ok {
				t.Fatalf("week %d mounts %q, which this test does not know: add its lab package to simulation", w.Number, m.Viz)
			}
			want = append(want, pkg)
		}
		for _, pkg := range simulation {
			if _, has := got[pkg]; has != slices.Contains(want, pkg) {
				t.Errorf("week %d's build (-tags %s) imports %s: %v, want %v", w.Number, Tags(w.Number), pkg, has, !has)
			}
		}
		for pkg, imports := range got {
			if pkg == "ratelab/lab/replay" || strings.HasPrefix(pkg, "ratelab/exercises/") {
				t.Errorf("week %d's build imports %s: it draws the reference only", w.Number, pkg)
			}
			// fmt's printer (and the reflection it brings) is a fifth of
			// a week's build: what a week's build links formats with
			// strconv.
			if strings.HasPrefix(pkg, "ratelab/") && slices.Contains(imports, "fmt") {
				t.Errorf("week %d's build links %s, which imports fmt: format with strconv there, fmt would add a fifth to the build", w.Number, pkg)
			}
		}
	}
	all := deps(t, "")
	for _, pkg := range simulation {
		if _, ok := all[pkg]; !ok {
			t.Errorf("lab.wasm's build (no tags) does not import %s", pkg)
		}
	}
}

// Build writes a week's build, and leaves the file it had when a build
// fails.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	path, err := Build(context.Background(), moduleRoot(t), dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "\x00asm") {
		t.Fatalf("%s is not WebAssembly (err %v)", path, err)
	}
	if filepath.Base(path) != "week-1.wasm" {
		t.Errorf("Build wrote %s, want week-1.wasm", path)
	}
	if _, err := Build(context.Background(), t.TempDir(), dir, 1); err == nil || !strings.Contains(err.Error(), "go build") {
		t.Errorf("building outside the module: err = %v, want the build's failure", err)
	}
	after, err := os.ReadFile(path)
	if err != nil || string(after) != string(b) {
		t.Errorf("a failed build changed %s (err %v)", path, err)
	}
}

// A week's Yours build compiles the week's exercises, and no exercise of a
// week whose lesson shows none of its visualizations (weeks 1 and 2 share
// theirs); lab.wasm compiles every exercise.
func TestYoursExercises(t *testing.T) {
	ctx, root := context.Background(), moduleRoot(t)
	all, err := YoursExercises(ctx, root, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range course.Exercises() {
		if !slices.Contains(all, e.ID) {
			t.Errorf("lab.wasm's build does not compile exercises/%s", e.ID)
		}
	}
	shares := func(a, b course.Week) bool {
		for _, m := range a.Lesson.Mounts {
			if slices.ContainsFunc(b.Lesson.Mounts, func(n course.Mount) bool { return n.Viz == m.Viz }) {
				return true
			}
		}
		return false
	}
	for _, w := range course.Weeks() {
		ids, err := YoursExercises(ctx, root, w.Number)
		if err != nil {
			t.Fatal(err)
		}
		for _, other := range course.Weeks() {
			for _, e := range other.Exercises {
				if want := other.Number == w.Number || shares(w, other); slices.Contains(ids, e.ID) != want {
					t.Errorf("week %d's Yours build (-tags %s) compiles exercises/%s: %v, want %v", w.Number, YoursTags(w.Number), e.ID, !want, want)
				}
			}
		}
	}
}

// BuildYours writes a week's Yours build, which has the learner's code,
// and BuildNoYours one without it, under the same name.
func TestBuildYours(t *testing.T) {
	dir := t.TempDir()
	ctx, root := context.Background(), moduleRoot(t)
	path, err := BuildYours(ctx, root, dir, 5)
	if err != nil {
		t.Fatal(err)
	}
	yours, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(yours), "\x00asm") || filepath.Base(path) != "yours-week-5.wasm" {
		t.Fatalf("BuildYours wrote %s, want WebAssembly in yours-week-5.wasm (err %v)", path, err)
	}
	if _, err := BuildNoYours(ctx, root, dir, 5); err != nil {
		t.Fatal(err)
	}
	ref, err := Build(ctx, root, dir, 5)
	if err != nil {
		t.Fatal(err)
	}
	without, err1 := os.ReadFile(path)
	reference, err2 := os.ReadFile(ref)
	if err1 != nil || err2 != nil || string(without) != string(reference) || string(without) == string(yours) {
		t.Errorf("BuildNoYours wrote %d bytes, the reference's build is %d and Yours' %d: want the reference's (errors %v, %v)", len(without), len(reference), len(yours), err1, err2)
	}
	if _, err := BuildYours(ctx, t.TempDir(), dir, 5); !errors.As(err, new(*Error)) {
		t.Errorf("building outside the module: err = %v, want an *Error", err)
	}
}

// Weeks 1 and 2 show the same visualization and load one build; weeks
// whose lessons show different ones each have their own; every lesson's
// build is one that is built.
func TestWeeksThatShowTheSameVisualizationsShareBuilds(t *testing.T) {
	if Of(2) != 1 || Name(2) != "week-1.wasm" || YoursName(2) != "yours-week-1.wasm" || Tags(2) != Tags(1) || YoursTags(2) != YoursTags(1) {
		t.Errorf("week 2 loads %s and %s (Of %d): want week 1's builds", Name(2), YoursName(2), Of(2))
	}
	if got := Weeks(); !slices.Equal(got, []int{1, 3, 4, 5}) {
		t.Errorf("Weeks() = %v; want 1, 3, 4, 5", got)
	}
	for _, w := range course.Weeks() {
		if !slices.Contains(Weeks(), Of(w.Number)) {
			t.Errorf("week %d loads week %d's builds, which are not built", w.Number, Of(w.Number))
		}
	}
	if Of(0) != 0 || YoursName(0) != "lab.wasm" || Of(9) != 9 || IsWeek(9) || IsWeek(0) || !IsWeek(2) {
		t.Errorf("Of(0) = %d, YoursName(0) = %s, Of(9) = %d, IsWeek(9, 0, 2) = %v %v %v; want 0, lab.wasm, 9, false false true", Of(0), YoursName(0), Of(9), IsWeek(9), IsWeek(0), IsWeek(2))
	}
}

// BuildAll makes every build, whatever the learner's code: with week 3's
// fair queue not compiling, week 3's Yours build and lab.wasm are built
// with the reference only, and say so; the other weeks' Yours builds
// have the learner's code.
func TestBuildAllBuildsTheReferenceWhereTheCodeDoesNotCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the module and builds the lab nine times")
	}
	dir := t.TempDir()
	if err := modcopy.Copy(moduleRoot(t), dir); err != nil {
		t.Fatal(err)
	}
	for _, kv := range modcopy.Env() { // -trimpath: the copy reuses the build cache
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			t.Setenv("GOFLAGS", v)
		}
	}
	broken := filepath.Join(dir, "exercises", "fairqueue", "broken.go")
	if err := os.WriteFile(broken, []byte("package fairqueue\n\nvar _ = undefinedThing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var said strings.Builder
	noYours, err := BuildAll(context.Background(), dir, out, &said)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(noYours, []int{3, 0}) {
		t.Errorf("built without Yours: weeks %v; want 3 and 0 (lab.wasm)\n%s", noYours, said.String())
	}
	for _, line := range []string{"week 3's exercises do not build", "exercises/ does not build"} {
		if !strings.Contains(said.String(), line) {
			t.Errorf("BuildAll said:\n%s\nwant a line saying %q", said.String(), line)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if read(YoursName(3)) != read(Name(3)) {
		t.Errorf("%s is not the reference's build, %s", YoursName(3), Name(3))
	}
	for _, week := range []int{1, 4, 5} {
		if read(YoursName(week)) == read(Name(week)) {
			t.Errorf("%s is the reference's build: want the learner's code in it", YoursName(week))
		}
	}
}

// A save rebuilds the Yours builds that compile what it changed, and
// lab.wasm, which compiles everything.
func TestRebuilt(t *testing.T) {
	for _, c := range []struct {
		saved []string
		want  []int
	}{
		{[]string{"gcra"}, []int{1, 0}},
		{[]string{"slidingwindow"}, []int{1, 0}},
		{[]string{"fairqueue", "breaker"}, []int{3, 5, 0}},
		{[]string{"governor"}, []int{4, 0}},
		{[]string{"not-an-exercise"}, []int{0}},
	} {
		got, err := Rebuilt(context.Background(), moduleRoot(t), c.saved)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("a save of %v rebuilds weeks %v; want %v", c.saved, got, c.want)
		}
	}
}
