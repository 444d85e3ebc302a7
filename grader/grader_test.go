package grader_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
)

func TestTimedSolutionsScoreFullMarks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks every reference solution")
	}
	r, err := grader.Grade(context.Background(), grader.Options{Root: root(t), Target: "solutions", Seed: grader.DefaultSeed})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Exercises {
		if e.Status != report.Passed || e.Score != e.MaxScore {
			t.Errorf("%s: %s %v/%v, want passed with full marks (%s)", e.ID, e.Status, e.Score, e.MaxScore, e.Message)
		}
		for _, c := range e.Checks {
			if c.Status != report.Passed {
				t.Errorf("%s: %s: %s", c.ID, c.Status, c.Message)
			}
			if c.Kind == report.Benchmark && (c.NsPerOp == nil || c.RefNsPerOp == nil || *c.BudgetNs != contractBudgetNs(e.ID)) {
				t.Errorf("%s: benchmark figures missing: %+v", c.ID, c)
			}
		}
	}
	if len(r.Exercises) != len(grader.Gradable()) {
		t.Errorf("graded %d exercises, want %d", len(r.Exercises), len(grader.Gradable()))
	}
	if r.Score != r.MaxScore || grader.ExitCode(r) != 0 {
		t.Errorf("score %v/%v exit %d, want full marks and exit 0", r.Score, r.MaxScore, grader.ExitCode(r))
	}
}

// contractBudgetNs is an exercise's benchmark budget per the contract
// (§3): 40 ns for a limiter call, 60 ns for a hierarchy TryAcquire (three
// levels charged), 100 ns for the week 3 and 5 calls that do more (a
// fairqueue Push+Pop, a gateway Admit, a throttle Write).
func contractBudgetNs(exercise string) float64 {
	switch exercise {
	case "hierarchy":
		return 60
	case "fairqueue", "gateway", "throttle":
		return 100
	}
	return 40
}

func TestStubsAreNotStarted(t *testing.T) {
	r, err := grader.Grade(context.Background(), grader.Options{Root: root(t), Seed: grader.DefaultSeed})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Exercises {
		if e.Status != report.NotStarted || e.Score != 0 || e.MaxScore == 0 {
			t.Errorf("%s: %s %v/%v, want not_started 0/max", e.ID, e.Status, e.Score, e.MaxScore)
		}
	}
	if grader.ExitCode(r) != 1 {
		t.Errorf("exit code %d, want 1", grader.ExitCode(r))
	}
}

func TestPanicsFailChecksWithTheMessage(t *testing.T) {
	ex := gradeFixture(t, "tokenbucket", "panics", false, 10*time.Second)
	if ex.Status != report.Failed {
		t.Errorf("status %s, want failed", ex.Status)
	}
	errors := 0
	for _, c := range ex.Checks {
		if c.Status == report.Error {
			errors++
			if !strings.Contains(c.Message, "panicked: runtime error: ") {
				t.Errorf("%s: message %q, want the panic", c.ID, c.Message)
			}
			ce := c.Counterexample
			switch {
			case ce == nil:
				t.Errorf("%s: no counterexample", c.ID)
			case len(ce.Steps) == 0: // New itself panicked
				if !strings.HasPrefix(c.Message, ce.Setup) {
					t.Errorf("%s: message %q should start with the panicking New call %q", c.ID, c.Message, ce.Setup)
				}
			case !strings.HasPrefix(ce.Steps[len(ce.Steps)-1].Got, "panic: "):
				t.Errorf("%s: counterexample should end on the panicking call: %+v", c.ID, ce)
			}
		}
	}
	if errors == 0 {
		t.Error("no check reported the panic")
	}
}

// TestHangIsATimeoutAndGradingGoesOn grades a bucket whose refill walks
// time a nanosecond at a time: every check that reaches a long idle is a
// timeout naming the call that did not return, past the call's 2 s of CPU
// time or the check's 20 s (or naming the last call, when the check's
// calls took the 20 s together); the other checks are graded.
func TestHangIsATimeoutAndGradingGoesOn(t *testing.T) {
	if testing.Short() {
		t.Skip("each hanging check spins its call's CPU time")
	}
	t.Parallel()
	ex := gradeHanging(t, "hangs")
	hangs(t, ex, "TryAcquire|Available")
}

// TestAHangingProbeIsNoStub grades a bucket whose Available spins when
// the bucket is not full and the clock has not moved, as it is on the
// grader's stub probe: the exercise is graded all the same, each check
// that makes such a call a timeout naming it, the others passed.
func TestAHangingProbeIsNoStub(t *testing.T) {
	if testing.Short() {
		t.Skip("each hanging check spins its call's CPU time")
	}
	t.Parallel()
	ex := gradeHanging(t, "available-spins")
	if ex.Status != report.Failed {
		t.Errorf("status %s (%s), want failed: graded, some checks timing out", ex.Status, ex.Message)
	}
	hangs(t, ex, "Available")
}

// gradeHanging grades the tokenbucket fixture name, whose code hangs, with
// a call's CPU limit of 250ms, not the grader's 2s: each check that hangs
// spins that long, and the fixture has a dozen. The check's deadline
// (3s, CPU time where the OS tells) is past it, short of the grader's
// default (20s), whose CPU time the checks would spin through for nothing.
func gradeHanging(t *testing.T, name string) *report.Exercise {
	t.Helper()
	return gradeFixtureWith(t, "tokenbucket", name, grader.Options{NoBench: true, CheckTimeout: 3 * time.Second, CallCPULimit: 250 * time.Millisecond})
}

// hangs fails t unless some checks of ex are timeouts naming a call of
// one of the methods (a regular expression), within the call's CPU time or
// the check's deadline, and some passed.
func hangs(t *testing.T, ex *report.Exercise, methods string) {
	t.Helper()
	named := regexp.MustCompile(`^(Found while checking "[^"]*": )?((` + methods + `)\(nowNs=\d+(, n=\d+)?\) (did not return within 250ms of CPU time|had not returned when the check's 3s were up)|the check's calls used up its 3s of CPU time together \(the last was \w+\([^)]*\)\)): `)
	timeouts, passed := 0, 0
	for _, c := range ex.Checks {
		switch c.Status {
		case report.Timeout:
			timeouts++
			if !named.MatchString(c.Message) {
				t.Errorf("%s: message %q should name the call that did not return and its limit", c.ID, c.Message)
			}
			t.Logf("%s: %s", c.ID, c.Message)
		case report.Passed:
			passed++
			t.Logf("%s passed: %s", c.ID, c.Message)
		default:
			t.Logf("%s %s: %s", c.ID, c.Status, c.Message)
		}
	}
	if timeouts == 0 || passed == 0 {
		t.Errorf("%d timeouts and %d passed checks; want some of each (the checks after a hang still run)", timeouts, passed)
	}
}

func TestBuildErrorsNameTheFileAndLine(t *testing.T) {
	r, err := grader.Grade(context.Background(), grader.Options{
		Root:      root(t),
		Exercises: []string{"tokenbucket", "gcra"},
		Replace:   map[string]string{"tokenbucket": "testdata/fixtures/tokenbucket/nocompile"},
		Seed:      grader.DefaultSeed,
	})
	if err != nil {
		t.Fatal(err)
	}
	tb, other := r.Find("tokenbucket"), r.Find("gcra")
	if tb.Status != report.Error || !strings.Contains(tb.Message, "tokenbucket.go:7:") {
		t.Errorf("tokenbucket: %s %q, want error with file:line", tb.Status, tb.Message)
	}
	// The same lines as fields: the compiler's, and whose fault it is.
	if lines, ok := tb.CompilerLines(); !ok || lines != tb.Compiler || !strings.Contains(tb.Compiler, "tokenbucket.go:7:") || tb.Fault != report.FaultCode {
		t.Errorf("tokenbucket: compiler %q, fault %q; want the compiler's lines, the code's fault", tb.Compiler, tb.Fault)
	}
	if other.Compiler != "" || other.Fault != "" {
		t.Errorf("gcra builds, yet has compiler %q and fault %q", other.Compiler, other.Fault)
	}
	if tb.MaxScore == 0 || len(tb.Checks) == 0 {
		t.Errorf("a build error still lists the checks and their points: %+v", tb)
	}
	if other.Status == report.Error {
		t.Errorf("gcra is untouched but reported %s: %s", other.Status, other.Message)
	}
	if grader.ExitCode(r) != 2 {
		t.Errorf("exit code %d, want 2 (could not grade)", grader.ExitCode(r))
	}
}

func TestWrongAPIIsExplained(t *testing.T) {
	ex := gradeFixture(t, "tokenbucket", "wrong-api", false, 10*time.Second)
	if ex.Status != report.Error || !strings.Contains(ex.Message, "does not match the course contract") || ex.Fault != report.FaultCode {
		t.Errorf("status %s fault %q message %q, want an API mismatch error, the code's fault", ex.Status, ex.Fault, ex.Message)
	}
}

func TestTimedBudgetFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks")
	}
	ex := gradeFixture(t, "tokenbucket", "too-slow", true, 10*time.Second)
	for _, c := range ex.Checks {
		want := report.Passed
		if c.Pitfall == "budget" {
			want = report.Failed
			if c.AllocsPerOp == nil || *c.AllocsPerOp == 0 {
				t.Errorf("%s: allocs/op = %v, want > 0", c.ID, c.AllocsPerOp)
			}
		}
		if c.Status != want {
			t.Errorf("%s: %s, want %s (%s)", c.ID, c.Status, want, c.Message)
		}
	}
}

func TestSameSeedSameReport(t *testing.T) {
	if testing.Short() {
		t.Skip("grades twice")
	}
	grade := func(seed int64) string {
		r, err := grader.Grade(context.Background(), grader.Options{
			Root: root(t), Exercises: []string{"tokenbucket"}, Seed: seed, NoBench: true,
			Replace: map[string]string{"tokenbucket": "testdata/fixtures/tokenbucket/truncating-refill"},
		})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		return string(b)
	}
	if a, b := grade(7), grade(7); a != b {
		t.Errorf("two runs with seed 7 differ:\n%s\n%s", a, b)
	}
}

// Exercises graded at once give the report one at a time gives, byte for
// byte, in course order; fixtures that fail stand in for two of them, so
// that the reports hold counterexamples and diagnoses.
func TestExercisesGradedAtOnceChangeNoReport(t *testing.T) {
	if testing.Short() {
		t.Skip("grades four exercises twice")
	}
	t.Parallel()
	grade := func(parallel int) string {
		r, err := grader.Grade(context.Background(), grader.Options{
			Root: root(t), Exercises: []string{"tokenbucket", "gcra", "slidingwindow", "breaker"}, Seed: grader.DefaultSeed, NoBench: true, Parallel: parallel,
			Replace: map[string]string{
				"tokenbucket": "testdata/fixtures/tokenbucket/truncating-refill",
				"breaker":     "testdata/fixtures/breaker/keeps-count",
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		return string(b)
	}
	if a, b := grade(1), grade(4); a != b {
		t.Errorf("graded one at a time and four at once, the reports differ:\n%s\n%s", a, b)
	}
}

func TestUnknownExercise(t *testing.T) {
	_, err := grader.Grade(context.Background(), grader.Options{Root: root(t), Exercises: []string{"leakybucket"}})
	if err == nil || !strings.Contains(err.Error(), "tokenbucket") {
		t.Errorf("err = %v, want one that lists the exercises", err)
	}
}

// BenchOnly, the live loop's second pass, runs the benchmarks alone: every
// other check reports skipped and earns nothing, the benchmarks are run.
func TestTimedBenchOnlyRunsTheBenchmarksAlone(t *testing.T) {
	r, err := grader.Grade(context.Background(), grader.Options{
		Root: root(t), Target: "solutions", Exercises: []string{"gcra"}, Seed: grader.DefaultSeed, BenchOnly: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	var benches int
	for _, c := range r.Exercises[0].Checks {
		switch {
		case c.Kind == report.Benchmark:
			benches++
			if c.Status != report.Passed {
				t.Errorf("%s: %s (%s); want the reference's benchmark run and passed", c.ID, c.Status, c.Message)
			}
		case c.Status != report.Skipped || c.Score != 0:
			t.Errorf("%s (%s): %s %g points; want skipped, 0 points", c.ID, c.Kind, c.Status, c.Score)
		}
	}
	if benches == 0 {
		t.Error("no benchmark check in the report")
	}
	_, err = grader.Grade(context.Background(), grader.Options{Root: root(t), NoBench: true, BenchOnly: true})
	if err == nil || !strings.Contains(err.Error(), "choose one") {
		t.Errorf("NoBench with BenchOnly: err = %v; want one that says to choose one", err)
	}
}
