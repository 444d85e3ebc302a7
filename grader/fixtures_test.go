package grader_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/check"
	"ratelab/grader/fixture"
	"ratelab/grader/report"
	"ratelab/lab/course"
)

// gradedFixtures returns every fixture TestFixtures grades, in course
// order, then by name: not those graded by a test of their own. It reads
// them when a test asks, not when the test binary starts: the binary also
// runs as a grading child, elsewhere.
func gradedFixtures(t *testing.T) []fixture.Fixture {
	t.Helper()
	var out []fixture.Fixture
	for _, e := range course.Exercises() {
		all, err := fixture.Read(filepath.Join("testdata", "fixtures"), e.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range all {
			if f.GradedBy == "" {
				out = append(out, f)
			}
		}
	}
	return out
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
		var f fixture.Fixture
		if err := fixture.Decode(dir, &f); err != nil {
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

func root(t testing.TB) string {
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
	for _, group := range fixtureGroups(gradedFixtures(t), false) {
		t.Run(group[0].Exercise, func(t *testing.T) {
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
	for _, group := range fixtureGroups(gradedFixtures(t), true) {
		t.Run(group[0].Exercise, func(t *testing.T) { checkFixtures(t, group, 1) })
	}
}

// fixtureGroups returns the fixtures with benchmarks judged (bench) or
// without, by exercise, in the order fixtures lists them.
func fixtureGroups(fixtures []fixture.Fixture, bench bool) [][]fixture.Fixture {
	var groups [][]fixture.Fixture
	at := map[string]int{}
	for _, f := range fixtures {
		if f.Bench != bench {
			continue
		}
		i, ok := at[f.Exercise]
		if !ok {
			i = len(groups)
			at[f.Exercise] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], f)
	}
	return groups
}

// checkFixtures grades fixtures of one exercise from one build, procs at
// a time (0: one a core), and checks each, as a subtest named after it.
func checkFixtures(t *testing.T, fixtures []fixture.Fixture, procs int) {
	id := fixtures[0].Exercise
	dirs := make([]string, len(fixtures))
	for i, f := range fixtures {
		dirs[i] = filepath.Join("testdata", "fixtures", id, f.Name)
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
		t.Run(f.Name, func(t *testing.T) { checkGraded(t, f, &exs[i]) })
	}
}

// checkGraded fails t unless ex, f graded, is what f says.
func checkGraded(t *testing.T, f fixture.Fixture, ex *report.Exercise) {
	if ex.Status == report.Error {
		t.Fatalf("%s/%s could not be graded: %s", f.Exercise, f.Name, ex.Message)
	}
	checkClaims(t, ex)
	var failed, mistakes []string
	pitfalls := map[string]bool{check.Exactness: true}
	for _, m := range grader.Mistakes(f.Exercise) {
		if slices.Contains(f.Mistakes, m.Name) {
			pitfalls[m.Pitfall] = true
		}
	}
	for _, c := range ex.Checks {
		name := strings.TrimPrefix(c.ID, f.Exercise+"/")
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
func checkSites(t *testing.T, f fixture.Fixture, c report.Check) {
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
			t.Errorf("%s fixture.Fixture stub: status %s, want not_started (%s)", ex.ID, ex.Status, ex.Message)
		}
	}
	if len(r.Exercises) != len(ids) {
		t.Errorf("%d exercises graded, want %d", len(r.Exercises), len(ids))
	}
}
