package live

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/event"
)

// Config is what Run needs. Build, Grade, Plan and Save are required.
type Config struct {
	Hub *Hub
	// Build builds the Yours WebAssembly that has the code of exercises
	// (those a save changed) and, if it compiles, serves it in place of the
	// previous build: files are the names, under /static/, of the builds
	// served anew. Its error's text is what the page shows (the compiler's
	// "file:line: message" lines).
	Build func(ctx context.Context, exercises []string) (files []string, err error)
	// Grade grades the exercises ids (grader.Grade): the checks of pass,
	// the others reported skipped, telling progress as it goes.
	Grade func(ctx context.Context, ids []string, pass Pass, progress func(grader.Event)) (*report.Report, error)
	// Plan returns an exercise's checks, not run yet (grader.Plan).
	Plan func(id string) ([]report.Check, error)
	// Save keeps a report for the pages, as `labserver grade` does.
	Save func(ctx context.Context, r *report.Report) error
	// Seed is the property seed Grade grades with: the grade so far, while
	// checks come in, carries it as the finished report does.
	Seed int64
	// Now stamps the grades; nil means time.Now.
	Now func() time.Time
	// Log receives what could not be done; nil means slog.Default().
	Log *slog.Logger
}

// Run turns each batch of changed exercise ids from changes into a build of
// Yours and a grading of those exercises (without benchmarks first, then
// with them), publishing every step on cfg.Hub. A batch that arrives while
// the previous one is still at work cancels it, and the next work grades
// both batches' exercises that were not finished. Run returns when ctx ends
// or changes closes (after the work in hand).
func Run(ctx context.Context, changes <-chan []string, cfg Config) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	l := &loop{cfg: cfg}
	var cur *work
	stop := func() []string {
		if cur == nil {
			return nil
		}
		cur.cancel()
		<-cur.done
		left := cur.unfinished()
		cur = nil
		return left
	}
	for {
		select {
		case <-ctx.Done():
			stop()
			return
		case ids, ok := <-changes:
			if !ok {
				if cur != nil {
					<-cur.done
				}
				return
			}
			ids = union(ids, stop())
			cur = l.start(ctx, ids)
		}
	}
}

type loop struct {
	cfg     Config
	version int64 // of the last good build; only the one work running touches it
}

// work is the build and grading of one batch.
type work struct {
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	left   map[string]bool // exercises not finished yet
}

func (w *work) finish(ids ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range ids {
		delete(w.left, id)
	}
}

func (w *work) unfinished() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var ids []string
	for id := range w.left {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

func (l *loop) start(ctx context.Context, ids []string) *work {
	ctx, cancel := context.WithCancel(ctx)
	w := &work{cancel: cancel, done: make(chan struct{}), left: map[string]bool{}}
	for _, id := range ids {
		w.left[id] = true
	}
	go func() {
		defer close(w.done)
		defer cancel()
		l.run(ctx, w, ids)
	}()
	return w
}

func (l *loop) publish(e Event) { l.cfg.Hub.Publish(e) }

// run grades the saved exercises without benchmarks first, with the
// machine to itself (the grade is what the learner waits for), then builds
// Yours for the browser, then grades the benchmarks alone on the machine.
func (l *loop) run(ctx context.Context, w *work, ids []string) {
	l.publish(Event{Type: event.Saved, Exercises: ids})
	built := make(chan struct{})
	started := false
	build := func() {
		started = true
		go func() {
			defer close(built)
			files, err := l.cfg.Build(ctx, ids)
			switch {
			case ctx.Err() != nil:
			case err != nil:
				l.publish(Event{Type: event.BuildFailed, Message: err.Error()})
			default:
				l.version++
				l.publish(Event{Type: event.Built, Version: l.version, Files: files})
			}
		}()
	}
	// Unless a newer save cancelled this work, Yours is built whatever the
	// grading found (a build that fails tells the pages why), and waited
	// for.
	defer func() {
		if !started && ctx.Err() == nil {
			build()
		}
		if started {
			<-built
		}
	}()

	partial := map[string]*report.Exercise{}
	var gradable []string
	for _, id := range ids {
		checks, err := l.cfg.Plan(id)
		if err != nil {
			w.finish(id) // not an exercise the grader knows (yet)
			continue
		}
		gradable = append(gradable, id)
		for i := range checks {
			checks[i].Status = report.Pending
		}
		partial[id] = &report.Exercise{ID: id, Status: report.Grading, Checks: checks}
	}
	if len(gradable) == 0 {
		return
	}
	r, err := l.grade(ctx, gradable, Properties, func(ev grader.Event) {
		ex := partial[ev.Exercise]
		if ev.Phase != grader.PhaseResult || ex == nil {
			return
		}
		l.checkDone(ex, *ev.Result, true)
	})
	if ctx.Err() == nil {
		build()
	}
	if err != nil {
		return
	}
	// An exercise that does not compile keeps its latest grade: the save
	// is not graded, only said not to compile.
	compiled := r.Exercises[:0:0]
	for _, ex := range r.Exercises {
		if msg, broken := ex.CompilerLines(); broken {
			w.finish(ex.ID)
			l.publish(Event{Type: event.NotBuilt, Exercises: []string{ex.ID}, Message: msg})
			continue
		}
		compiled = append(compiled, ex)
	}
	if len(compiled) == 0 {
		return
	}
	r.Exercises = compiled
	r.Total()
	var bench []string
	for i := range r.Exercises {
		ex := &r.Exercises[i]
		if needsBench(ex) {
			bench = append(bench, ex.ID)
		} else {
			w.finish(ex.ID)
		}
	}
	l.saved(ctx, r, func(id string) bool { return slices.Contains(bench, id) })
	if len(bench) == 0 {
		return
	}
	select {
	case <-built: // benchmarks measure better without a build beside them
	case <-ctx.Done():
		return
	}
	so := map[string]*report.Exercise{}
	for i := range r.Exercises {
		so[r.Exercises[i].ID] = &r.Exercises[i]
	}
	benched, err := l.grade(ctx, bench, Benchmarks, func(ev grader.Event) {
		ex := so[ev.Exercise]
		if ev.Phase != grader.PhaseResult || ex == nil || ev.Result.Kind != report.Benchmark {
			return
		}
		l.checkDone(ex, *ev.Result, false)
	})
	if err != nil {
		return
	}
	merge(r, benched)
	l.saved(ctx, r, func(string) bool { return false })
	w.finish(bench...)
}

// Pass is which checks one grading of the live loop runs: a save is graded
// twice, the properties and cases first (their results come in seconds),
// then the benchmarks alone, so that no check runs twice.
type Pass int

const (
	Properties Pass = iota // every check but the benchmarks
	Benchmarks             // the benchmarks alone
)

// merge puts the benchmarks of benched, the second pass, in r, the
// first, and makes r's scores and statuses those of the whole grade. An
// exercise the second pass could not grade (its child was lost, say) takes
// that pass's status and message.
func merge(r, benched *report.Report) {
	for _, b := range benched.Exercises {
		ex := r.Find(b.ID)
		if ex == nil {
			continue
		}
		for _, c := range b.Checks {
			if c.Kind == report.Benchmark {
				put(ex, c)
			}
		}
		switch b.Status {
		case report.Error, report.Timeout:
			ex.Status, ex.Message = b.Status, b.Message
		default:
			ex.Status = ex.Graded()
		}
	}
	r.Total()
}

// put puts the result c in place of the check of its id in ex, and sums
// ex's score and maximum again.
func put(ex *report.Exercise, c report.Check) {
	for i := range ex.Checks {
		if ex.Checks[i].ID == c.ID {
			ex.Checks[i] = c
		}
	}
	ex.Total()
}

// grade runs cfg.Grade and tells the pages when the grader itself fails.
func (l *loop) grade(ctx context.Context, ids []string, pass Pass, progress func(grader.Event)) (*report.Report, error) {
	r, err := l.cfg.Grade(ctx, ids, pass, progress)
	if err != nil && ctx.Err() == nil {
		l.cfg.Log.Error("live: grading", "exercises", ids, "err", err)
		l.publish(Event{Type: event.GradeFailed, Message: err.Error()})
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return r, err
}

// checkDone puts a check's result in the exercise's grade so far and
// publishes both. grading says the exercise's status is not known yet.
func (l *loop) checkDone(ex *report.Exercise, c report.Check, grading bool) {
	put(ex, c)
	snap := *ex
	snap.Checks = slices.Clone(ex.Checks)
	if grading {
		snap.Status = report.Grading
		for i, c := range snap.Checks {
			if c.Kind == report.Benchmark && c.Status == report.Skipped {
				snap.Checks[i].Status = report.Pending // the second pass measures it
			}
		}
	} else {
		measuring(&snap)
	}
	g := GradeOf(&snap, l.cfg.Now(), l.cfg.Seed, true)
	l.publish(Event{Type: event.Check, Check: &c, Grade: &g})
}

// saved saves r and publishes each exercise's grade; pending tells which
// still wait for their benchmarks.
func (l *loop) saved(ctx context.Context, r *report.Report, pending func(id string) bool) {
	if err := l.cfg.Save(ctx, r); err != nil {
		l.cfg.Log.Error("live: saving the grade for the pages", "err", err)
	}
	now := l.cfg.Now()
	for i := range r.Exercises {
		ex := r.Exercises[i]
		ex.Checks = slices.Clone(ex.Checks)
		if pending(ex.ID) {
			measuring(&ex)
		}
		g := GradeOf(&ex, now, r.Seed, pending(ex.ID))
		l.publish(Event{Type: event.Grade, Grade: &g})
	}
}

// measuring marks ex, whose checks are all graded but its benchmarks, as
// measuring them: the benchmarks the first pass skipped, and ex itself
// unless the grader could not grade it at all. ex's checks must be its own.
func measuring(ex *report.Exercise) {
	for i, c := range ex.Checks {
		if c.Kind == report.Benchmark && c.Status == report.Skipped {
			ex.Checks[i].Status, ex.Checks[i].Message = report.Measuring, ""
		}
	}
	switch ex.Status {
	case report.Error, report.NotStarted, report.Timeout:
	default:
		ex.Status = report.Measuring
	}
}

// needsBench reports whether a grade without benchmarks has benchmarks to
// run: it built, is not the stub, and skipped some benchmark.
func needsBench(ex *report.Exercise) bool {
	if ex.Status == report.Error || ex.Status == report.NotStarted {
		return false
	}
	for _, c := range ex.Checks {
		if c.Kind == report.Benchmark && c.Status == report.Skipped {
			return true
		}
	}
	return false
}
