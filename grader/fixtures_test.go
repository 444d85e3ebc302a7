package grader_test

import (
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
	"ratelab/grader/report"
	"ratelab/lab/course"
)

// fixture is a known implementation in testdata/fixtures/<exercise>/<name>
// and what grading it must find.
type fixture struct {
	exercise, name string
	// fails lists every check (by pitfall-qualified id suffix) that must
	// lose points; every other check must pass. Empty for a correct one.
	fails []string
	// unjudged lists the checks that must report "not judged": the code
	// fails their calls without their trap, so they cannot vouch for it
	// (no points) and blame nothing.
	unjudged []string
	bench    bool // run the benchmarks too
}

var fixtures = []fixture{
	// tokenbucket: one known-buggy implementation per pitfall...
	{exercise: "tokenbucket", name: "starts-empty", fails: []string{"starts-full", "capacity", "exactness"}, unjudged: []string{"fractional-tokens", "waits-exactly", "partial-take", "backward-time", "overflow"}},
	{exercise: "tokenbucket", name: "no-cap", fails: []string{"capacity", "exactness"}},
	{exercise: "tokenbucket", name: "clock-by-whole-ns", fails: []string{"fractional-tokens", "exactness"}},
	{exercise: "tokenbucket", name: "truncating-refill", fails: []string{"fractional-tokens", "waits-exactly", "exactness"}},
	{exercise: "tokenbucket", name: "partial-take", fails: []string{"partial-take", "exactness"}},
	{exercise: "tokenbucket", name: "wrapping-elapsed", fails: []string{"backward-time"}},
	{exercise: "tokenbucket", name: "wrapping-product", fails: []string{"overflow"}},
	{exercise: "tokenbucket", name: "rounds-available", fails: []string{"exactness"}},
	// ...one correct but too slow...
	{exercise: "tokenbucket", name: "too-slow", fails: []string{"budget"}, bench: true},
	// ...one that panics on values no check draws, beside a real mismatch
	// (Available rounded up, which also wraps near MaxUint64): the mismatch
	// is what fails, never the panic...
	{exercise: "tokenbucket", name: "zero-panics", fails: []string{"overflow", "exactness"}},
	// ...and correct ones written differently from the reference.
	{exercise: "tokenbucket", name: "correct-split", bench: true},
	{exercise: "tokenbucket", name: "correct-timetofull", bench: true},
	{exercise: "tokenbucket", name: "correct-clamp-first", bench: true},

	// gcra: one known-buggy implementation per pitfall (two for
	// backward-time and overflow)...
	{exercise: "gcra", name: "burst-plus-one", fails: []string{"exactness", "rounding"}, unjudged: []string{"backward-time", "overflow"}},
	{exercise: "gcra", name: "no-validation", fails: []string{"new-arguments"}},
	{exercise: "gcra", name: "whole-ns", fails: []string{"rounding"}},
	{exercise: "gcra", name: "no-latest", fails: []string{"backward-time"}},
	{exercise: "gcra", name: "wrapping-elapsed", fails: []string{"backward-time"}},
	{exercise: "gcra", name: "wrapping-tat", fails: []string{"overflow"}},
	{exercise: "gcra", name: "wrapping-product", fails: []string{"overflow"}},
	// ...one correct but too slow...
	{exercise: "gcra", name: "bigmath", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "gcra", name: "correct-u128", bench: true},
	{exercise: "gcra", name: "correct-mixed", bench: true},

	// slidingwindow: one known-buggy implementation per pitfall (two for
	// window-edge and overflow)...
	{exercise: "slidingwindow", name: "counts-rejects", fails: []string{"rejected-counted", "exactness"}},
	{exercise: "slidingwindow", name: "stale-slot", fails: []string{"stale-bucket", "exactness"}},
	{exercise: "slidingwindow", name: "plus-one-bucket", fails: []string{"window-edge", "exactness"}},
	{exercise: "slidingwindow", name: "by-nanoseconds", fails: []string{"window-edge", "exactness"}},
	{exercise: "slidingwindow", name: "trusts-backward", fails: []string{"backward-time", "exactness"}},
	{exercise: "slidingwindow", name: "max-marker", fails: []string{"overflow"}},
	{exercise: "slidingwindow", name: "id-plus-k", fails: []string{"overflow"}},
	{exercise: "slidingwindow", name: "no-validation", fails: []string{"new-arguments"}},
	// ...one correct but too slow...
	{exercise: "slidingwindow", name: "sums-every-bucket", fails: []string{"budget"}, bench: true},
	// ...another algorithm (the two-window estimate) that clamps time and
	// never counts a refusal: blamed only for what it counts...
	{exercise: "slidingwindow", name: "interpolating", fails: []string{"stale-bucket", "window-edge", "exactness"}, unjudged: []string{"rejected-counted", "backward-time", "overflow"}},
	// ...and correct ones written differently from the reference.
	{exercise: "slidingwindow", name: "correct-ring", bench: true},
	{exercise: "slidingwindow", name: "correct-ids", bench: true},

	// governor: one known-buggy implementation per pitfall (two for
	// slow-start)...
	{exercise: "governor", name: "opens-at-ceiling", fails: []string{"slow-start", "exactness"}},
	{exercise: "governor", name: "grows-by-half", fails: []string{"slow-start", "floor-ceiling", "exactness"}},
	{exercise: "governor", name: "halving", fails: []string{"back-off", "floor-ceiling", "exactness"}},
	{exercise: "governor", name: "no-dead-band", fails: []string{"dead-band", "exactness"}},
	{exercise: "governor", name: "multiplicative-recovery", fails: []string{"recover-then-probe", "climb-after-back-off", "floor-ceiling", "exactness"}},
	{exercise: "governor", name: "streak-not-reset", fails: []string{"memory-clear-step", "memory-clear", "exactness"}},
	{exercise: "governor", name: "no-floor", fails: []string{"floor-ceiling", "exactness"}},
	{exercise: "governor", name: "lifetime-ratio", fails: []string{"climb-after-back-off", "memory-clear", "windowing", "exactness"}},
	{exercise: "governor", name: "stale-offer", fails: []string{"exactness"}},
	// ...and correct ones written differently from the reference.
	{exercise: "governor", name: "correct-table"},
	{exercise: "governor", name: "correct-events"},

	// gradient2: one known-buggy implementation per pitfall...
	{exercise: "gradient2", name: "no-warmup", fails: []string{"warmup", "exactness"}},
	{exercise: "gradient2", name: "decay-not-kept", fails: []string{"long-rtt-decay", "exactness"}},
	{exercise: "gradient2", name: "app-limited-skips-rtt", fails: []string{"long-rtt-decay", "app-limited", "exactness"}},
	{exercise: "gradient2", name: "no-upper-clamp", fails: []string{"gradient-clamp", "exactness"}},
	{exercise: "gradient2", name: "no-smoothing", fails: []string{"smoothing", "exactness"}},
	{exercise: "gradient2", name: "no-limit-clamp", fails: []string{"floor-ceiling", "exactness"}},
	{exercise: "gradient2", name: "rounds-limit", fails: []string{"exactness"}},
	// ...one deviation each, which no other check may blame: a floor of 4
	// where MinLimit is 0, and RTTTolerance ignored...
	{exercise: "gradient2", name: "min-limit-four", fails: []string{"floor-ceiling"}},
	{exercise: "gradient2", name: "ignores-tolerance", fails: []string{"gradient-clamp", "exactness"}},
	// ...and correct ones written differently from the reference.
	{exercise: "gradient2", name: "correct-ring"},
	{exercise: "gradient2", name: "correct-deferred"},
	// gateway: one known-buggy implementation per pitfall...
	{exercise: "gateway", name: "cancels-share-orders", fails: []string{"cancel-budget", "exactness"}},
	{exercise: "gateway", name: "heartbeat-takes-token", fails: []string{"heartbeat", "exactness"}},
	{exercise: "gateway", name: "retry-floor", fails: []string{"retry-after", "exactness"}, unjudged: []string{"overflow"}},
	{exercise: "gateway", name: "flood-never-ends", fails: []string{"escalation", "exactness"}, unjudged: []string{"heartbeat", "reconnect", "reload", "backward-time"}},
	{exercise: "gateway", name: "reconnect-refills", fails: []string{"reconnect", "exactness"}, unjudged: []string{"backward-time"}},
	{exercise: "gateway", name: "reload-new-rate", fails: []string{"reload", "exactness"}, unjudged: []string{"escalation", "backward-time"}},
	{exercise: "gateway", name: "validation-unnamed", fails: []string{"config-validation"}},
	{exercise: "gateway", name: "rewinds-clock", fails: []string{"backward-time"}},
	{exercise: "gateway", name: "wrapping-product", fails: []string{"overflow"}},
	// ...one correct but too slow...
	{exercise: "gateway", name: "eager-refill", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "gateway", name: "correct-values", bench: true},
	{exercise: "gateway", name: "correct-retry-div", bench: true},

	// hierarchy: one known-buggy tree per pitfall...
	{exercise: "hierarchy", name: "charges-as-it-goes", fails: []string{"all-or-nothing", "exactness"}, unjudged: []string{"shared-parent", "backward-time", "add-errors"}},
	{exercise: "hierarchy", name: "leaf-only", fails: []string{"shared-parent", "exactness"}, unjudged: []string{"all-or-nothing", "lazy-refill", "backward-time", "add-errors"}},
	// (a node off the path loses time, also when the call that moved the
	// clock named an unknown id: add-errors shows it too)
	{exercise: "hierarchy", name: "path-clock", fails: []string{"lazy-refill", "add-errors", "exactness"}, unjudged: []string{"backward-time"}},
	{exercise: "hierarchy", name: "wrapping-elapsed", fails: []string{"backward-time"}, unjudged: []string{"add-errors"}},
	{exercise: "hierarchy", name: "truncating-refill", fails: []string{"fractional-tokens", "exactness"}},
	{exercise: "hierarchy", name: "wrapping-product", fails: []string{"overflow"}},
	{exercise: "hierarchy", name: "burns-an-id", fails: []string{"add-errors"}},
	// ...one correct but too slow...
	{exercise: "hierarchy", name: "eager-bigmath", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	// correct-flat (about 21 ns, the reference 18 in the same runs, both
	// with the other core busy) proves the budget passable by code other
	// than the reference, as eager-bigmath proves it can fail. The other
	// two (35 to 60 ns, a pointer per level or a recursion) sit at the
	// 40 ns budget, so a verdict on their speed would depend on the
	// machine: they prove the behavioural checks only.
	{exercise: "hierarchy", name: "correct-flat", bench: true},
	{exercise: "hierarchy", name: "correct-pointers"},
	{exercise: "hierarchy", name: "correct-recursive"},

	// fairqueue: one known-buggy queue per pitfall...
	{exercise: "fairqueue", name: "keeps-credit", fails: []string{"deficit-reset", "exactness"}, unjudged: []string{"large-cost", "fifo"}},
	{exercise: "fairqueue", name: "serves-early", fails: []string{"large-cost", "exactness"}},
	{exercise: "fairqueue", name: "newcomer-first", fails: []string{"round-order", "exactness"}, unjudged: []string{"deficit-reset", "large-cost", "turn", "fifo"}},
	// (a second quantum within a turn also serves big commands early)
	{exercise: "fairqueue", name: "quantum-every-pop", fails: []string{"large-cost", "turn", "exactness"}, unjudged: []string{"deficit-reset", "round-order", "fifo"}},
	{exercise: "fairqueue", name: "lifo", fails: []string{"fifo", "exactness"}, unjudged: []string{"deficit-reset"}},
	// ...one correct but too slow...
	{exercise: "fairqueue", name: "scans-sessions", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "fairqueue", name: "correct-slices", bench: true},
	{exercise: "fairqueue", name: "correct-maps"}, // ~100 ns against the 100 ns budget: behaviour only

	// throttle: one known-buggy gate per pitfall (two for congestion-step)...
	{exercise: "throttle", name: "recovers-after", fails: []string{"recover-first", "status", "exactness"}, unjudged: []string{"backward-time"}},
	{exercise: "throttle", name: "whitelist-skips-pause", fails: []string{"pause-all", "exactness"}, unjudged: []string{"status", "backward-time"}},
	{exercise: "throttle", name: "whitelist-uncounted", fails: []string{"whitelist-scope"}, unjudged: []string{"pause-all"}},
	{exercise: "throttle", name: "override-as-cap", fails: []string{"override", "exactness"}, unjudged: []string{"status", "backward-time"}},
	{exercise: "throttle", name: "counts-refused", fails: []string{"rate-window", "exactness"}, unjudged: []string{"recover-first", "pause-all", "override", "congestion-step", "status", "backward-time"}},
	{exercise: "throttle", name: "high-refuses", fails: []string{"congestion-not-a-gate", "exactness"}, unjudged: []string{"recover-first", "whitelist-scope", "override", "rate-window", "congestion-step", "status", "backward-time"}},
	{exercise: "throttle", name: "moves-without-change", fails: []string{"congestion-step", "exactness"}, unjudged: []string{"recover-first", "whitelist-scope", "override", "rate-window", "status", "backward-time"}},
	{exercise: "throttle", name: "step-in-32-bits", fails: []string{"congestion-step"}},
	{exercise: "throttle", name: "period-not-reset", fails: []string{"degraded-period", "exactness"}, unjudged: []string{"recover-first", "pause-all", "whitelist-scope", "precedence", "status", "backward-time"}},
	{exercise: "throttle", name: "rate-first", fails: []string{"precedence", "exactness"}, unjudged: []string{"recover-first", "pause-all", "whitelist-scope", "degraded-period", "status", "backward-time"}},
	{exercise: "throttle", name: "status-no-recovery", fails: []string{"status", "exactness"}, unjudged: []string{"backward-time"}},
	{exercise: "throttle", name: "rewinds-clock", fails: []string{"backward-time"}},
	{exercise: "throttle", name: "validation-unnamed", fails: []string{"config-validation"}},
	// (a load equal to LowBelow taken as Low: a level no other check judges)
	{exercise: "throttle", name: "level-inclusive", fails: []string{"exactness"}, unjudged: []string{"recover-first", "whitelist-scope", "override", "rate-window", "congestion-not-a-gate", "congestion-step", "status", "backward-time"}},
	// ...one correct but too slow...
	{exercise: "throttle", name: "prunes-every-address", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "throttle", name: "correct-slices", bench: true},
	// ~80 to 87 ns against the 100 ns budget on a quiet machine: one CI run
	// found a stretch where everything, the reference too (85 ns, usually
	// 50), was 1.6 times slower, and it failed; behaviour only.
	{exercise: "throttle", name: "correct-values"},

	// breaker: one known-buggy breaker per pitfall (two for open-timeout)...
	{exercise: "breaker", name: "no-reset", fails: []string{"consecutive", "exactness"}},
	{exercise: "breaker", name: "strict-timeout", fails: []string{"open-timeout", "exactness"}},
	{exercise: "breaker", name: "wrapping-end", fails: []string{"open-timeout"}},
	{exercise: "breaker", name: "probes-unlimited", fails: []string{"half-open-probes", "exactness"}},
	{exercise: "breaker", name: "no-generation", fails: []string{"generation", "exactness"}},
	{exercise: "breaker", name: "raw-time", fails: []string{"backward-time"}},
	{exercise: "breaker", name: "no-validation", fails: []string{"exactness"}},
	// ...one correct but allocating...
	{exercise: "breaker", name: "ticket-map", fails: []string{"budget"}, bench: true},
	// ...and correct ones written differently from the reference.
	{exercise: "breaker", name: "correct-gens", bench: true},
	{exercise: "breaker", name: "correct-deadline", bench: true},
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func gradeFixture(t *testing.T, exercise, name string, bench bool, timeout time.Duration) *report.Exercise {
	t.Helper()
	r, err := grader.Grade(context.Background(), grader.Options{
		Root:         root(t),
		Exercises:    []string{exercise},
		Replace:      map[string]string{exercise: filepath.Join("testdata", "fixtures", exercise, name)},
		Seed:         grader.DefaultSeed,
		NoBench:      !bench,
		CheckTimeout: timeout,
	})
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	if len(r.Exercises) != 1 {
		t.Fatalf("report has %d exercises, want 1", len(r.Exercises))
	}
	return &r.Exercises[0]
}

func TestFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("grades every fixture in a child process")
	}
	for _, f := range fixtures {
		t.Run(f.exercise+"/"+f.name, func(t *testing.T) {
			ex := gradeFixture(t, f.exercise, f.name, f.bench, 20*time.Second)
			var failed, unjudged []string
			for _, c := range ex.Checks {
				name := strings.TrimPrefix(c.ID, f.exercise+"/")
				if c.Status == report.Skipped && c.Kind == report.Benchmark && !f.bench {
					continue
				}
				if c.Status == report.Skipped && c.Message == check.NotJudged {
					// A check that cannot vouch for the code earns nothing
					// and blames nothing: no counterexample, no hint.
					unjudged = append(unjudged, name)
					if c.Counterexample != nil || c.Score != 0 {
						t.Errorf("%s: not judged, yet %v points and a counterexample %+v", c.ID, c.Score, c.Counterexample)
					}
					continue
				}
				if c.Status != report.Passed {
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
						if c.Kind == report.Property && len(ce.Steps) > 8 {
							t.Errorf("%s: counterexample has %d steps, want at most 8 after shrinking:\n%s", c.ID, len(ce.Steps), ce.Setup)
						}
					}
				}
			}
			if !slices.Equal(unjudged, f.unjudged) {
				t.Errorf("checks not judged = %q; want %q", unjudged, f.unjudged)
			}
			if !slices.Equal(failed, f.fails) {
				t.Errorf("failed checks = %q; want %q", failed, f.fails)
				for _, c := range ex.Checks {
					if c.Status != report.Passed && c.Counterexample != nil {
						t.Logf("%s: %s\n  %s %v", c.ID, c.Message, c.Counterexample.Setup, c.Counterexample.Steps)
					}
				}
			}
			// Full marks need every check, so a skipped benchmark leaves a
			// correct fixture "failed" (short of full marks) too.
			skipped := slices.ContainsFunc(ex.Checks, func(c report.Check) bool { return c.Status == report.Skipped && c.Kind == report.Benchmark })
			wantStatus := report.Failed
			if len(f.fails)+len(f.unjudged) == 0 && !skipped {
				wantStatus = report.Passed
			}
			if ex.Status != wantStatus {
				t.Errorf("exercise status %s, want %s", ex.Status, wantStatus)
			}
		})
	}
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
		for _, p := range problems(root(t), e.ID, plan, fixtures, linked) {
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
		{exercise: "leakybucket", name: "never-drains", fails: []string{"drains"}},
		{exercise: "leakybucket", name: "correct-queue"},
	}
	got := strings.Join(problems(root(t), "leakybucket", plan, fake, false), "\n")
	for _, want := range []string{"exercises/leakybucket", "solutions/leakybucket", `pitfall "overflow"`, "1 correct", "no lesson", "testdata/fixtures/leakybucket/never-drains"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems of an incomplete exercise:\n%s\nwant one mentioning %q", got, want)
		}
	}
	if strings.Contains(got, `pitfall "drain"`) {
		t.Errorf("problems blame pitfall drain, which never-drains fails:\n%s", got)
	}
}

// problems lists what exercise id lacks: its stub and solution packages,
// its fixtures' folders, a fixture failing a check of each pitfall in plan,
// two correct fixtures, a lesson (linked).
func problems(root, id string, plan []report.Check, fixtures []fixture, linked bool) []string {
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
		if len(f.fails) == 0 {
			correct++
		}
		for _, c := range plan {
			if slices.Contains(f.fails, strings.TrimPrefix(c.ID, id+"/")) {
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
	for _, e := range grader.Gradable() {
		id := e.ID
		if ex := gradeFixture(t, id, "stub", false, 10*time.Second); ex.Status != report.NotStarted {
			t.Errorf("%s fixture stub: status %s, want not_started", id, ex.Status)
		}
	}
}
