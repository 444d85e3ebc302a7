package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/event"
)

// fakeGrader grades exercise x with a property check x/p and a benchmark
// x/b: the property passes unless broken[x], the benchmark always passes;
// each pass runs only its own checks and reports the others skipped, as
// grader.Grade does with NoBench or BenchOnly.
type fakeGrader struct {
	mu     sync.Mutex
	broken map[string]bool
	// noBuild names the exercises whose code does not compile.
	noBuild map[string]bool
	calls   []string // "nobench [a b]" / "bench [a]"
	saved   []*report.Report
	// block, if set, is called at the start of each grading; it may wait.
	block func(ctx context.Context, ids []string, pass Pass)
}

func plan(id string) ([]report.Check, error) {
	return []report.Check{
		{ID: id + "/p", Kind: report.Property, Status: report.Skipped, MaxScore: 5},
		{ID: id + "/b", Kind: report.Benchmark, Status: report.Skipped, MaxScore: 5},
	}, nil
}

func (f *fakeGrader) grade(ctx context.Context, ids []string, pass Pass, progress func(grader.Event)) (*report.Report, error) {
	f.mu.Lock()
	mode := "bench"
	if pass == Properties {
		mode = "nobench"
	}
	f.calls = append(f.calls, fmt.Sprintf("%s %v", mode, ids))
	block := f.block
	f.mu.Unlock()
	if block != nil {
		block(ctx, ids, pass)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r := &report.Report{Schema: report.Schema, Target: "exercises", Seed: 1}
	for _, id := range ids {
		ex := report.Exercise{ID: id}
		if f.noBuild[id] {
			grader.SetCompileError(&ex, "exercises/"+id+"/x.go:3:2: undefined: y")
			r.Exercises = append(r.Exercises, ex)
			continue
		}
		p := report.Check{ID: id + "/p", Kind: report.Property, Status: report.Passed, Score: 5, MaxScore: 5}
		if f.broken[id] {
			p.Status, p.Score = report.Failed, 0
		}
		if pass == Benchmarks {
			p.Status, p.Score = report.Skipped, 0
		}
		b := report.Check{ID: id + "/b", Kind: report.Benchmark, Status: report.Passed, Score: 5, MaxScore: 5}
		if pass == Properties {
			b.Status, b.Score = report.Skipped, 0
		}
		for _, c := range []report.Check{p, b} {
			progress(grader.Event{Exercise: id, Phase: grader.PhaseResult, Result: &c})
			ex.Checks = append(ex.Checks, c)
			ex.Score += c.Score
			ex.MaxScore += c.MaxScore
		}
		ex.Status = report.Failed
		if ex.Score == ex.MaxScore {
			ex.Status = report.Passed
		}
		r.Exercises = append(r.Exercises, ex)
	}
	r.Total()
	return r, nil
}

func (f *fakeGrader) save(_ context.Context, r *report.Report) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved = append(f.saved, r)
	return nil
}

func (f *fakeGrader) config(h *Hub, build func(context.Context) error) Config {
	return Config{
		Hub: h, Build: func(ctx context.Context, ids []string) ([]string, error) {
			// The builds of the saved exercises' code, as the lab names them.
			return []string{"yours-" + strings.Join(ids, "+") + ".wasm"}, build(ctx)
		}, Grade: f.grade, Plan: plan, Save: f.save, Seed: 1,
		Now: func() time.Time { return time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC) },
	}
}

// until reads events until one satisfies last, and returns them all.
func until(t *testing.T, s *Subscription, last func(Event) bool) []Event {
	t.Helper()
	var got []Event
	for e := range s.C {
		got = append(got, e)
		if last(e) {
			return got
		}
	}
	t.Fatalf("subscription closed after %d events", len(got))
	return nil
}

func finalGrade(id string) func(Event) bool {
	return func(e Event) bool { return e.Type == event.Grade && e.Grade.Exercise == id && !e.Grade.Pending }
}

// describe lists events compactly: "check a/p grading 5/10 pending".
func describe(es []Event) []string {
	var out []string
	for _, e := range es {
		switch e.Type {
		case event.Check:
			out = append(out, fmt.Sprintf("check %s %s %g/%g", e.Check.ID, e.Grade.Status, e.Grade.Score, e.Grade.MaxScore))
		case event.Grade:
			out = append(out, fmt.Sprintf("grade %s %s %g/%g pending=%v", e.Grade.Exercise, e.Grade.Status, e.Grade.Score, e.Grade.MaxScore, e.Grade.Pending))
		case event.Built:
			out = append(out, fmt.Sprintf("built %d %v", e.Version, e.Files))
		default:
			out = append(out, fmt.Sprintf("%s %v%s", e.Type, e.Exercises, e.Message))
		}
	}
	return out
}

func TestRunGradesWithoutThenWithBenchmarks(t *testing.T) {
	var h Hub
	s, _ := h.Subscribe()
	f := &fakeGrader{}
	buildDone := make(chan struct{})
	changes := make(chan []string)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, changes, f.config(&h, func(context.Context) error { <-buildDone; return nil }))
	}()
	changes <- []string{"tokenbucket"}
	// The grade without benchmarks comes while the build still runs.
	got := describe(until(t, s, func(e Event) bool { return e.Type == event.Grade }))
	want := []string{
		"saved [tokenbucket]",
		"check tokenbucket/p grading 5/10",
		"check tokenbucket/b grading 5/10",
		"grade tokenbucket measuring 5/10 pending=true",
	}
	if !slices.Equal(got, want) {
		t.Errorf("events before the build ends:\n got %q\nwant %q", got, want)
	}
	close(buildDone)
	got = describe(until(t, s, finalGrade("tokenbucket")))
	want = []string{
		"built 1 [yours-tokenbucket.wasm]",
		"check tokenbucket/b measuring 10/10",
		"grade tokenbucket passed 10/10 pending=false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("events after the build:\n got %q\nwant %q", got, want)
	}
	close(changes)
	<-done
	if want := []string{"nobench [tokenbucket]", "bench [tokenbucket]"}; !slices.Equal(f.calls, want) {
		t.Errorf("gradings = %q; want %q", f.calls, want)
	}
	// The benchmark pass skipped the property: the saved grade keeps the
	// first pass's result for it.
	if len(f.saved) != 2 {
		t.Fatalf("saved %d reports; want 2", len(f.saved))
	}
	last := f.saved[1]
	if ex := last.Exercises[0]; ex.Status != report.Passed || ex.Score != 10 || ex.Checks[0].Status != report.Passed || last.Score != 10 {
		t.Errorf("last saved grade %s %g/%g (report %g), property %s; want passed 10/10 with the property passed", ex.Status, ex.Score, ex.MaxScore, last.Score, ex.Checks[0].Status)
	}
}

// The grade so far says what it is: checks not run yet are pending, the
// benchmarks while they are measured measuring, never skipped, and it
// carries the seed the finished grade will.
func TestRunGradeSoFarIsPendingThenMeasuring(t *testing.T) {
	var h Hub
	s, _ := h.Subscribe()
	f := &fakeGrader{}
	changes := make(chan []string)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, changes, f.config(&h, func(context.Context) error { return nil }))
	}()
	changes <- []string{"a"}
	statuses := func(g *Grade) string {
		out := string(g.Status)
		for _, c := range g.Result.Checks {
			out += " " + c.ID + "=" + string(c.Status)
		}
		return out
	}
	var got []string
	for _, e := range until(t, s, finalGrade("a")) {
		if e.Grade == nil {
			continue
		}
		if e.Grade.Seed != 1 {
			t.Errorf("%s event's grade has seed %d; want 1, the grading's", e.Type, e.Grade.Seed)
		}
		got = append(got, string(e.Type)+": "+statuses(e.Grade))
	}
	want := []string{
		"check: grading a/p=passed a/b=pending",
		"check: grading a/p=passed a/b=pending",
		"grade: measuring a/p=passed a/b=measuring",
		"check: measuring a/p=passed a/b=passed", // the last benchmark is in; the grade follows
		"grade: passed a/p=passed a/b=passed",
	}
	if !slices.Equal(got, want) {
		t.Errorf("grades so far:\n got %q\nwant %q", got, want)
	}
	close(changes)
	<-done
}

// A build that fails is told with its message; no built event, and the
// grading goes on. A failed exercise without benchmarks to run is final.
func TestRunBuildFailed(t *testing.T) {
	var h Hub
	s, _ := h.Subscribe()
	f := &fakeGrader{broken: map[string]bool{"gcra": true}}
	f.block = func(ctx context.Context, ids []string, pass Pass) {}
	changes := make(chan []string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	msg := "exercises/gcra/gcra.go:12:2: undefined: tat"
	changes <- []string{"gcra"}
	close(changes)
	Run(ctx, changes, f.config(&h, func(context.Context) error { return errors.New(msg) }))
	var failed []string
	for _, e := range until(t, s, finalGrade("gcra")) {
		if e.Type == event.BuildFailed {
			failed = append(failed, e.Message)
		}
		if e.Type == event.Built {
			t.Errorf("built event after a failed build: %+v", e)
		}
	}
	if !slices.Equal(failed, []string{msg}) {
		t.Errorf("build_failed messages = %q; want %q", failed, msg)
	}
	if h.State().BuildMessage != msg {
		t.Errorf("State().BuildMessage = %q; want %q", h.State().BuildMessage, msg)
	}
}

// A save during a grading cancels it; the next work grades the exercises of
// both saves.
func TestRunNewSaveCancelsAndJoins(t *testing.T) {
	var h Hub
	s, _ := h.Subscribe()
	f := &fakeGrader{}
	started := make(chan []string)
	first := true
	f.block = func(ctx context.Context, ids []string, pass Pass) {
		if first {
			first = false
			started <- ids
			<-ctx.Done() // held until the next save cancels it
		}
	}
	changes := make(chan []string)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, changes, f.config(&h, func(context.Context) error { return nil }))
	}()
	changes <- []string{"gcra"}
	<-started
	changes <- []string{"tokenbucket"}
	got := until(t, s, func(e Event) bool { return e.Type == event.Saved && len(e.Exercises) == 2 })
	if e := got[len(got)-1]; !slices.Equal(e.Exercises, []string{"gcra", "tokenbucket"}) {
		t.Errorf("second work saved %v; want both exercises", e.Exercises)
	}
	until(t, s, finalGrade("gcra"))
	close(changes)
	<-done
	want := []string{"nobench [gcra]", "nobench [gcra tokenbucket]", "bench [gcra tokenbucket]"}
	if !slices.Equal(f.calls, want) {
		t.Errorf("gradings = %q; want %q", f.calls, want)
	}
}

// merge puts the second pass's benchmarks in the first pass's grade and
// sums it again; an exercise the second pass could not grade takes that
// pass's status and message, and one it did not grade is left as it was.
func TestMergeBenchmarkPass(t *testing.T) {
	ex := func(id string, p, b report.Check) report.Exercise {
		return report.Exercise{ID: id, Checks: []report.Check{p, b}}
	}
	prop := func(id string, score float64) report.Check {
		status := report.Passed
		if score == 0 {
			status = report.Failed
		}
		return report.Check{ID: id + "/p", Kind: report.Property, Status: status, Score: score, MaxScore: 5}
	}
	bench := func(id string, status report.Status, score float64) report.Check {
		return report.Check{ID: id + "/b", Kind: report.Benchmark, Status: status, Score: score, MaxScore: 5}
	}
	skipped := func(id string) report.Check {
		return report.Check{ID: id + "/p", Kind: report.Property, Status: report.Skipped, MaxScore: 5}
	}
	first := &report.Report{Exercises: []report.Exercise{
		ex("a", prop("a", 5), bench("a", report.Skipped, 0)),
		ex("b", prop("b", 0), bench("b", report.Skipped, 0)),
		ex("c", prop("c", 5), bench("c", report.Skipped, 0)),
		ex("d", prop("d", 5), bench("d", report.Skipped, 0)),
	}}
	for i := range first.Exercises {
		e := &first.Exercises[i]
		e.Status, e.Score, e.MaxScore = report.Passed, e.Checks[0].Score, 10
	}
	second := &report.Report{Exercises: []report.Exercise{
		ex("a", skipped("a"), bench("a", report.Passed, 5)),
		ex("b", skipped("b"), bench("b", report.Passed, 5)),
		{ID: "c", Status: report.Error, Message: "child lost"},
		ex("z", skipped("z"), bench("z", report.Passed, 5)), // not in the first pass
	}}
	merge(first, second)
	want := []struct {
		id      string
		status  report.Status
		score   float64
		message string
	}{
		{"a", report.Passed, 10, ""},
		{"b", report.Failed, 5, ""},
		{"c", report.Error, 5, "child lost"},
		{"d", report.Passed, 5, ""}, // not in the second pass: untouched
	}
	if len(first.Exercises) != len(want) {
		t.Fatalf("merged %d exercises, want %d", len(first.Exercises), len(want))
	}
	for i, w := range want {
		e := first.Exercises[i]
		if e.ID != w.id || e.Status != w.status || e.Score != w.score || e.Message != w.message {
			t.Errorf("exercise %d: %s %s %g %q, want %s %s %g %q", i, e.ID, e.Status, e.Score, e.Message, w.id, w.status, w.score, w.message)
		}
	}
	if c := first.Exercises[0].Checks[0]; c.Status != report.Passed {
		t.Errorf("a's property is %s after the merge, want the first pass's passed", c.Status)
	}
	if c := first.Exercises[0].Checks[1]; c.Status != report.Passed || c.Score != 5 {
		t.Errorf("a's benchmark is %s %g after the merge, want the second pass's passed 5", c.Status, c.Score)
	}
	if first.Score != 25 {
		t.Errorf("report's score %g, want 25 (the exercises' sum)", first.Score)
	}
}

// A save that does not compile is not graded: the exercise's latest grade
// stands (nothing saved or published for it), and the pages are told the
// compiler's lines; an exercise of the same save that compiles is graded.
func TestRunKeepsTheGradeOfCodeThatDoesNotCompile(t *testing.T) {
	var h Hub
	s, _ := h.Subscribe()
	f := &fakeGrader{noBuild: map[string]bool{"a": true}}
	changes := make(chan []string)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, changes, f.config(&h, func(context.Context) error { return nil }))
	}()
	changes <- []string{"a", "b"}
	got := until(t, s, finalGrade("b"))
	close(changes)
	<-done
	var notBuilt []string
	for _, e := range got {
		if e.Type == event.NotBuilt {
			notBuilt = append(notBuilt, fmt.Sprintf("%v %s", e.Exercises, e.Message))
		}
		if (e.Type == event.Grade || e.Type == event.Check) && e.Grade.Exercise == "a" {
			t.Errorf("a grade of a, which does not compile: %s", describe([]Event{e}))
		}
	}
	if want := []string{"[a] exercises/a/x.go:3:2: undefined: y"}; !slices.Equal(notBuilt, want) {
		t.Errorf("not_built events = %q; want %q", notBuilt, want)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.saved {
		if r.Find("a") != nil {
			t.Errorf("saved a report with a, which does not compile: %+v", r.Find("a"))
		}
		if r.Find("b") == nil {
			t.Errorf("saved a report without b, which compiles")
		}
	}
	if len(f.saved) == 0 {
		t.Error("nothing saved: b compiles and must be graded")
	}
}

// A save is graded before Yours is built, so that the build does not slow
// the grade the learner waits for; the benchmarks come after the build.
func TestRunGradesBeforeItBuilds(t *testing.T) {
	var h Hub
	s, _ := h.Subscribe()
	f := &fakeGrader{}
	var mu sync.Mutex
	var order []string
	step := func(what string) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, what)
	}
	// A build started beside the grading would be seen: the grading
	// waits a while for one to start. Its verdict never depends on how
	// long: a build that starts only once the grading has returned passes
	// however slow the machine.
	building := make(chan struct{})
	f.block = func(ctx context.Context, ids []string, pass Pass) {
		if pass == Properties {
			select {
			case <-building:
			case <-time.After(300 * time.Millisecond):
			}
		}
	}
	cfg := f.config(&h, func(context.Context) error {
		step("build")
		close(building)
		return nil
	})
	cfg.Grade = func(ctx context.Context, ids []string, pass Pass, progress func(grader.Event)) (*report.Report, error) {
		r, err := f.grade(ctx, ids, pass, progress)
		step(fmt.Sprintf("graded %v", pass))
		return r, err
	}
	changes := make(chan []string, 1)
	changes <- []string{"a"}
	close(changes)
	Run(context.Background(), changes, cfg)
	until(t, s, finalGrade("a"))
	mu.Lock()
	defer mu.Unlock()
	if want := []string{fmt.Sprintf("graded %v", Properties), "build", fmt.Sprintf("graded %v", Benchmarks)}; !slices.Equal(order, want) {
		t.Errorf("steps %q, want %q", order, want)
	}
}
