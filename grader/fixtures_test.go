package grader_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/check"
	"ratelab/grader/report"
	"ratelab/lab/course"
)

// fixture is a known implementation in testdata/fixtures/<exercise>/<name>
// and what grading it must find, read from the expect.json beside its code.
type fixture struct {
	exercise, name string
	// About says what the implementation does, and why it is here.
	About string `json:"about"`
	// Fails lists every check (by pitfall-qualified id suffix) that must
	// lose points; every other check must pass. Empty for a correct one.
	Fails []string `json:"fails"`
	// Mistakes lists the mistakes the grader must name (every failed
	// check's, together), for a suite with error models: a fixture that
	// makes one mistake loses that mistake's pitfall (and exactness, at
	// most), however many checks its failures show in.
	Mistakes []string `json:"mistakes"`
	Bench    bool     `json:"bench"` // run the benchmarks too
	// Sites are the allocation sites its budget check must report, as
	// "file:line (kind)", the most per call first; a correct fixture must
	// report none, and a failing one none unless it lists them.
	Sites []string `json:"sites"`
	// MaxSteps bounds a property's shrunk counterexample; 0 means 8. A
	// fixture whose mistake needs more calls to show says why.
	MaxSteps int `json:"max_steps"`
	// GradedBy names the test that grades this folder for a purpose of its
	// own (a stub, a hang, a build error): TestFixtures leaves it alone.
	GradedBy string `json:"graded_by"`
}

// fixtures are every fixture TestFixtures grades, in course order, then
// by name.
var fixtures = readFixtures(filepath.Join("testdata", "fixtures"))

// readFixtures reads the expect.json of every folder under dir/<exercise>,
// but those another test grades (GradedBy). A folder without one, or with
// one that does not parse or has a field this type lacks, makes it panic:
// the test binary then says which file to fix.
func readFixtures(dir string) []fixture {
	var out []fixture
	for _, e := range course.Exercises() {
		folders, err := os.ReadDir(filepath.Join(dir, e.ID))
		if err != nil {
			panic(err)
		}
		for _, folder := range folders {
			var f fixture
			if err := readExpect(filepath.Join(dir, e.ID, folder.Name()), &f); err != nil {
				panic(err)
			}
			if f.GradedBy == "" {
				f.exercise, f.name = e.ID, folder.Name()
				out = append(out, f)
			}
		}
	}
	return out
}

// readExpect decodes dir's expect.json into x, refusing a field x lacks
// (a misspelt one would otherwise be ignored).
func readExpect(dir string, x any) error {
	data, err := os.ReadFile(filepath.Join(dir, "expect.json"))
	if err != nil {
		return fmt.Errorf("every folder of fixtures and learners needs an expect.json: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(x); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, "expect.json"), err)
	}
	return nil
}

// TestFixturesGradedElsewhereNameTheirTest checks that a fixture folder
// TestFixtures leaves to another test names a test of this package, in a
// file that reads the folder.
func TestFixturesGradedElsewhereNameTheirTest(t *testing.T) {
	sources := map[string]string{}
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources[f] = string(data)
	}
	dirs, _ := filepath.Glob(filepath.Join("testdata", "fixtures", "*", "*"))
	others := 0
	for _, dir := range dirs {
		var f fixture
		if err := readExpect(dir, &f); err != nil {
			t.Fatal(err)
		}
		if f.GradedBy == "" {
			continue
		}
		others++
		file := ""
		for name, src := range sources {
			if strings.Contains(src, "\nfunc "+f.GradedBy+"(t *testing.T)") {
				file = name
			}
		}
		switch {
		case file == "":
			t.Errorf("%s: graded_by %q names no test of package grader", dir, f.GradedBy)
		case !strings.Contains(sources[file], `"`+filepath.Base(dir)+`"`) && !strings.Contains(sources[file], "/"+filepath.Base(dir)+`"`):
			t.Errorf("%s: graded_by %s, but %s never names the folder %q", dir, f.GradedBy, file, filepath.Base(dir))
		}
	}
	if others == 0 {
		t.Error("no fixture folder is graded by a test of its own; the stubs at least are")
	}
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// gradeFixture grades fixture name of exercise, with or without its
// benchmarks, each check within timeout.
func gradeFixture(t *testing.T, exercise, name string, bench bool, timeout time.Duration) *report.Exercise {
	t.Helper()
	return gradeFixtureWith(t, exercise, name, grader.Options{NoBench: !bench, CheckTimeout: timeout})
}

// gradeFixtureWith grades fixture name of exercise, with the default seed,
// under the options o (its Root, Exercises, Replace and Seed set here).
func gradeFixtureWith(t *testing.T, exercise, name string, o grader.Options) *report.Exercise {
	t.Helper()
	o.Root, o.Exercises, o.Seed = root(t), []string{exercise}, grader.DefaultSeed
	o.Replace = map[string]string{exercise: filepath.Join("testdata", "fixtures", exercise, name)}
	r, err := grader.Grade(context.Background(), o)
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	if len(r.Exercises) != 1 {
		t.Fatalf("report has %d exercises, want 1", len(r.Exercises))
	}
	return &r.Exercises[0]
}

// TestFixtures grades every fixture without benchmarks: an exercise's
// fixtures from one build (grader.GradeVariants), two at a time (one a
// core), and two exercises at a time (go test's -parallel). No verdict here depends on time: a call's deadline is CPU time,
// which a busy machine does not use up. TestTimedFixtureBudgets grades those
// with benchmarks, one at a time, after them.
func TestFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("grades every fixture in a child process")
	}
	t.Parallel() // after the tests that count builds or switch the grader's ways
	for _, group := range fixtureGroups(false) {
		t.Run(group[0].exercise, func(t *testing.T) {
			t.Parallel() // one exercise builds while another grades
			checkFixtures(t, group, 0)
		})
	}
}

// TestTimedFixtureBudgets grades the fixtures whose benchmarks are judged too,
// one at a time, so that nothing else of this test's runs beside them.
func TestTimedFixtureBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("grades every fixture in a child process, with its benchmarks")
	}
	for _, group := range fixtureGroups(true) {
		t.Run(group[0].exercise, func(t *testing.T) { checkFixtures(t, group, 1) })
	}
}

// fixtureGroups returns the fixtures with benchmarks judged (bench) or
// without, by exercise, in the order fixtures lists them.
func fixtureGroups(bench bool) [][]fixture {
	var groups [][]fixture
	at := map[string]int{}
	for _, f := range fixtures {
		if f.Bench != bench {
			continue
		}
		i, ok := at[f.exercise]
		if !ok {
			i = len(groups)
			at[f.exercise] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], f)
	}
	return groups
}

// checkFixtures grades fixtures of one exercise from one build, procs at
// a time (0: one a core), and checks each, as a subtest named after it.
func checkFixtures(t *testing.T, fixtures []fixture, procs int) {
	id := fixtures[0].exercise
	dirs := make([]string, len(fixtures))
	for i, f := range fixtures {
		dirs[i] = filepath.Join("testdata", "fixtures", id, f.name)
	}
	exs, err := grader.GradeVariants(context.Background(), grader.Options{
		Root:         root(t),
		Exercises:    []string{id},
		Seed:         grader.DefaultSeed,
		NoBench:      !fixtures[0].Bench,
		CheckTimeout: 20 * time.Second,
		Parallel:     procs,
	}, dirs)
	if err != nil {
		t.Fatalf("GradeVariants: %v", err)
	}
	for i, f := range fixtures {
		t.Run(f.name, func(t *testing.T) { checkGraded(t, f, &exs[i]) })
	}
}

// checkGraded fails t unless ex, f graded, is what f says.
func checkGraded(t *testing.T, f fixture, ex *report.Exercise) {
	if ex.Status == report.Error {
		t.Fatalf("%s/%s could not be graded: %s", f.exercise, f.name, ex.Message)
	}
	checkClaims(t, ex)
	var failed, mistakes []string
	pitfalls := map[string]bool{check.Exactness: true}
	for _, m := range grader.Mistakes(f.exercise) {
		if slices.Contains(f.Mistakes, m.Name) {
			pitfalls[m.Pitfall] = true
		}
	}
	for _, c := range ex.Checks {
		name := strings.TrimPrefix(c.ID, f.exercise+"/")
		if c.Status == report.Skipped && c.Kind == report.Benchmark && !f.Bench {
			continue
		}
		if c.Status == report.Skipped && c.Kind == report.Benchmark && strings.HasPrefix(c.Message, "Not timed: this machine was too busy") {
			// The grader itself could not time it (the reference was over
			// its budget in the same runs): no verdict either way, said as
			// such. make test runs these alone, on a quiet machine.
			t.Skipf("%s: %s", c.ID, c.Message)
		}
		if c.Kind == report.Benchmark {
			checkSites(t, f, c)
		}
		if c.Status == report.Passed {
			if len(c.Mistakes) > 0 && c.Counterexample == nil {
				t.Errorf("%s passed for a failure charged elsewhere, without showing it", c.ID)
			}
			continue
		}
		failed = append(failed, name)
		if c.Counterexample != nil {
			t.Logf("%s: %s\n  %s\n  %v", c.ID, c.Message, c.Counterexample.Setup, c.Counterexample.Steps)
		}
		if c.Status != report.Failed {
			t.Errorf("%s: status %s, want failed (message %q)", c.ID, c.Status, c.Message)
		}
		if c.Message == "" || c.Hint == "" {
			t.Errorf("%s failed without a message and a hint", c.ID)
		}
		if ce := c.Counterexample; (ce == nil || len(ce.Steps) == 0) && c.Kind != report.Benchmark {
			t.Errorf("%s failed without a counterexample", c.ID)
		} else if ce != nil && len(ce.Steps) > 0 { // a benchmark fails with figures instead
			last := ce.Steps[len(ce.Steps)-1]
			if last.Got == last.Want {
				t.Errorf("%s: counterexample ends on a step that agrees: %+v", c.ID, last)
			}
			if most := cmp.Or(f.MaxSteps, 8); c.Kind == report.Property && len(ce.Steps) > most {
				t.Errorf("%s: counterexample has %d steps, want at most %d after shrinking:\n%s", c.ID, len(ce.Steps), most, ce.Setup)
			}
		}
		if c.Kind != report.Benchmark {
			for _, m := range c.Mistakes {
				if !slices.Contains(mistakes, m) {
					mistakes = append(mistakes, m)
				}
			}
			switch {
			case c.Diagnosis == "" && c.Counterexample != nil && len(c.Mistakes) == 0 && !own(c):
				t.Errorf("%s failed with no diagnosis", c.ID)
			case len(f.Mistakes) > 0 && !pitfalls[c.Pitfall] && !own(c) && c.Diagnosis != report.Unnamed:
				t.Errorf("%s (pitfall %s) lost points, but none of the fixture's mistakes %q is of that pitfall", c.ID, c.Pitfall, f.Mistakes)
			}
		}
	}
	if !slices.Equal(failed, f.Fails) {
		t.Errorf("failed checks = %q; want %q", failed, f.Fails)
		for _, c := range ex.Checks {
			if c.Status != report.Passed && c.Counterexample != nil {
				t.Logf("%s: %s\n  %s %v", c.ID, c.Message, c.Counterexample.Setup, c.Counterexample.Steps)
			}
		}
	}
	slices.Sort(mistakes)
	if want := slices.Sorted(slices.Values(f.Mistakes)); !slices.Equal(mistakes, want) {
		t.Errorf("mistakes named = %q; want %q", mistakes, want)
	}
	// Full marks need every check, so a skipped benchmark leaves a
	// correct fixture "failed" (short of full marks) too.
	skipped := slices.ContainsFunc(ex.Checks, func(c report.Check) bool { return c.Status == report.Skipped && c.Kind == report.Benchmark })
	wantStatus := report.Failed
	if len(f.Fails) == 0 && !skipped {
		wantStatus = report.Passed
	}
	if ex.Status != wantStatus {
		t.Errorf("exercise status %s, want %s", ex.Status, wantStatus)
	}
}

// checkSites fails t unless the benchmark check c of fixture f reports the
// allocation sites f lists, each with a rate of its own no higher than the
// check's, and names the first in its message.
func checkSites(t *testing.T, f fixture, c report.Check) {
	t.Helper()
	var got []string
	for _, s := range c.AllocationSites {
		got = append(got, fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Kind))
		if c.AllocsPerOp == nil || s.PerCall <= 0 || s.PerCall > *c.AllocsPerOp*1.5 {
			t.Errorf("%s: site %s:%d allocates %v times a call, the check %v", c.ID, s.File, s.Line, s.PerCall, c.AllocsPerOp)
		}
	}
	if len(got) > 0 {
		t.Logf("%s: allocation sites %q", c.ID, got)
	}
	if (len(f.Fails) == 0 || f.Sites != nil) && !slices.Equal(got, f.Sites) {
		t.Errorf("%s: allocation sites %q, want %q (%s)", c.ID, got, f.Sites, c.Message)
	}
	if s := c.AllocationSites; len(s) > 0 && !strings.Contains(c.Message, fmt.Sprintf("at %s:%d", s[0].File, s[0].Line)) {
		t.Errorf("%s: the message does not name the first allocation site %s:%d: %s", c.ID, s[0].File, s[0].Line, c.Message)
	}
}

// own reports whether c is judged by its own table of single calls (an
// argument or config validation): its failures name no mistake.
func own(c report.Check) bool {
	table := c.Kind == report.Case || c.Counterexample != nil && strings.HasPrefix(c.Counterexample.Setup, "// each step is a call")
	return table && c.Status == report.Failed && c.Diagnosis == "" && len(c.Mistakes) == 0
}

// TestEveryExerciseIsComplete walks the registry: every gradable exercise
// has a stub, a solution, a suite, a known-buggy fixture failing a check of
// each of its pitfalls, two correct fixtures and a lesson that links it.
func TestEveryExerciseIsComplete(t *testing.T) {
	for _, e := range grader.Gradable() {
		plan, err := grader.Plan(e.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, linked := course.LessonOf(e)
		for _, p := range problems(root(t), e.ID, plan, fixtures, linked, grader.Mistakes(e.ID)) {
			t.Errorf("%s: %s", e.ID, p)
		}
	}
	for _, e := range course.Exercises() {
		if _, err := grader.Plan(e.ID); err != nil {
			t.Errorf("%s is in the course but the grader has no suite for it: %v", e.ID, err)
		}
	}
}

// TestAnIncompleteExerciseIsCaught shows problems finding what a new
// exercise left out: here nothing exists on disk, one of its two pitfalls
// has no fixture, there is one correct fixture and no lesson.
func TestAnIncompleteExerciseIsCaught(t *testing.T) {
	plan := []report.Check{
		{ID: "leakybucket/drains", Pitfall: "drain"},
		{ID: "leakybucket/overflow", Pitfall: "overflow"},
	}
	fake := []fixture{
		{exercise: "leakybucket", name: "never-drains", Fails: []string{"drains"}},
		{exercise: "leakybucket", name: "correct-queue"},
	}
	mistakes := []check.Named{{Name: "never-drains", Pitfall: "drain", Says: "never drains"}}
	got := strings.Join(problems(root(t), "leakybucket", plan, fake, false, mistakes), "\n")
	for _, want := range []string{"exercises/leakybucket", "solutions/leakybucket", `pitfall "overflow"`, "1 correct", "no lesson", "testdata/fixtures/leakybucket/never-drains", `no mistake of pitfall "overflow"`} {
		if !strings.Contains(got, want) {
			t.Errorf("problems of an incomplete exercise:\n%s\nwant one mentioning %q", got, want)
		}
	}
	if strings.Contains(got, `pitfall "drain"`) {
		t.Errorf("problems blame pitfall drain, which never-drains fails and a mistake models:\n%s", got)
	}
}

// problems lists what exercise id lacks: its stub and solution packages,
// its fixtures' folders, a fixture failing a check of each pitfall in plan,
// a mistake (of mistakes, its error models) for each pitfall but the
// budget, two correct fixtures, a lesson (linked).
func problems(root, id string, plan []report.Check, fixtures []fixture, linked bool, mistakes []check.Named) []string {
	var out []string
	for _, dir := range []string{"exercises/" + id, "solutions/" + id} {
		if gos, _ := filepath.Glob(filepath.Join(root, dir, "*.go")); len(gos) == 0 {
			out = append(out, "no Go package in "+dir)
		}
	}
	if len(plan) == 0 {
		out = append(out, "no checks: the grader has no suite for it")
	}
	caught := map[string]bool{}
	correct := 0
	for _, f := range fixtures {
		if f.exercise != id {
			continue
		}
		dir := filepath.Join("testdata", "fixtures", id, f.name)
		if _, err := os.Stat(filepath.Join(root, "grader", dir)); err != nil {
			out = append(out, "fixture folder missing: "+dir)
		}
		if len(f.Fails) == 0 {
			correct++
		}
		for _, c := range plan {
			if slices.Contains(f.Fails, strings.TrimPrefix(c.ID, id+"/")) {
				caught[c.Pitfall] = true
			}
		}
	}
	for _, c := range plan {
		if !caught[c.Pitfall] {
			out = append(out, fmt.Sprintf("no known-buggy fixture fails a check for pitfall %q", c.Pitfall))
			caught[c.Pitfall] = true
		}
	}
	modelled := map[string]bool{"budget": true}
	for _, m := range mistakes {
		modelled[m.Pitfall] = true
	}
	for _, c := range plan {
		if !modelled[c.Pitfall] {
			out = append(out, fmt.Sprintf("no mistake of pitfall %q in its error models", c.Pitfall))
			modelled[c.Pitfall] = true
		}
	}
	if correct < 2 {
		out = append(out, fmt.Sprintf("%d correct fixtures written differently from the reference, want at least 2", correct))
	}
	if !linked {
		out = append(out, "no lesson links it (lab/course)")
	}
	return out
}

func planOf(t *testing.T, id string) []report.Check {
	t.Helper()
	p, err := grader.Plan(id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStubFixturesAreNotStarted grades, for every exercise, a stub written
// differently from exercises/ (other files, other messages, sometimes a New
// that works): it must still be recognised as not started.
func TestStubFixturesAreNotStarted(t *testing.T) {
	replace := map[string]string{}
	var ids []string
	for _, e := range grader.Gradable() {
		ids = append(ids, e.ID)
		replace[e.ID] = filepath.Join("testdata", "fixtures", e.ID, "stub")
	}
	// One build of every stub: each exercise is graded on its own all
	// the same.
	r, err := grader.Grade(context.Background(), grader.Options{Root: root(t), Exercises: ids, Replace: replace, Seed: grader.DefaultSeed, NoBench: true, CheckTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range r.Exercises {
		if ex.Status != report.NotStarted {
			t.Errorf("%s fixture stub: status %s, want not_started (%s)", ex.ID, ex.Status, ex.Message)
		}
	}
	if len(r.Exercises) != len(ids) {
		t.Errorf("%d exercises graded, want %d", len(r.Exercises), len(ids))
	}
}
