package grader

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"ratelab/grader/buildcache"
	"ratelab/grader/buildout"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
	"ratelab/lab/course"
)

// Options says what to grade and how.
type Options struct {
	Root   string // the module's directory (holding go.mod)
	Module string // the module path; "" means "ratelab"
	// Target is the tree graded: "exercises" (the learner's) or "solutions".
	Target string
	// Replace grades an exercise from another directory of .go files (a
	// fixture, a submission) in place of exercises/<id>. Target must be
	// "exercises".
	Replace   map[string]string
	Exercises []string // ids to grade; nil means every gradable exercise
	Seed      int64
	NoBench   bool
	// BenchOnly runs the benchmark checks alone; the others report skipped
	// (the second pass of a grade whose properties were just run, as the
	// live loop does). It excludes NoBench.
	BenchOnly bool
	// CheckTimeout bounds the time one property or case check's calls of
	// the learner's code take together: on the clock while a call is out,
	// as CPU time on a busy machine (up to three times it on the clock).
	// The grader's own work between calls does not count. 0 means 20s.
	CheckTimeout time.Duration
	// CallCPULimit is the CPU time one call of the learner's code may take
	// before it counts as one that does not return; 0 means 2s. Tests of
	// code that hangs set less, not to spin 2s of CPU per check.
	CallCPULimit time.Duration
	// OneByOne sends each call of the learner's code by itself, waiting
	// for its answer, instead of sending a replay's calls ahead (see
	// check.Ahead): slower, and the same report; for checking the grader.
	// Either way the process answers every call with its own answer,
	// which the grader judges.
	OneByOne bool
	// BenchTimeout bounds one benchmark check; 0 means 60s.
	BenchTimeout time.Duration
	// Progress, if set, is told what the grader is doing as it goes, one
	// event at a time (exercises graded at once take turns).
	Progress func(Event)
	// Sandbox, if set, confines the build and the child (see Sandbox). Nil
	// grades as on a learner's own machine.
	Sandbox *sandbox.Sandbox
	// BuildCache, if set, keeps child programs by the content of what goes
	// into them: a grading of files graded before (a regrade, an identical
	// resubmission) copies the program instead of building it. Nil builds
	// every time.
	BuildCache *buildcache.Cache
	// Parallel is how many exercises Grade, or variants GradeVariants,
	// grades at a time; 0 means one a core (GOMAXPROCS). However many run,
	// a benchmark check runs alone: nothing else of the grading runs
	// beside it (see grading.alone).
	Parallel int
	// Counts, if set, is added what the grading asked of its grading
	// programs (see Counts): for measuring, never for grading.
	Counts *Counts
	// TempDir is where the grading's own folder goes (the child's binary,
	// the build's work); "" means the system's temporary folder. The folder
	// is removed when Grade returns.
	TempDir string
}

// Phase is what a progress Event reports.
type Phase string

// The phases of grading, in the order they come for one exercise.
const (
	PhaseBuild    Phase = "build"    // its code is being built
	PhaseStart    Phase = "start"    // a check starts (Check)
	PhaseResult   Phase = "result"   // a check's result (Result)
	PhaseExercise Phase = "exercise" // the exercise's result (Summary)
)

// Event reports progress. Exactly one of the phases applies.
type Event struct {
	Exercise string
	Phase    Phase
	Check    string        // the check id, for "start"
	Result   *report.Check // for "result"
	Summary  *report.Exercise
}

// DefaultSeed is the property seed when none is given: fixed, so two runs
// report the same counterexample.
const DefaultSeed = 1

type grading struct {
	opts Options
	tmp  string
	// variants are the folders GradeVariants grades, variant i's at i.
	variants []string
	// alone lets a benchmark check run with nothing else of the grading
	// beside it, when exercises (or variants) are graded at once (see
	// turn).
	alone sync.RWMutex
}

// SetCompileError marks ex as not graded because its code does not build;
// lines are the compiler's (see buildout.Lines), and whose fault it is
// follows from them (buildout.Fault).
func SetCompileError(ex *report.Exercise, lines string) {
	ex.Status = report.Error
	ex.Message = report.NotBuilt + lines
	ex.Compiler = lines
	ex.Fault = buildout.Fault(lines)
}

// Grade grades the target tree and returns the report. An error means the
// grader itself could not run (no Go toolchain, no temp space, bad
// options); everything that goes wrong with the code under test is in the
// report.
func Grade(ctx context.Context, opts Options) (*report.Report, error) {
	if err := opts.normalize(); err != nil {
		return nil, err
	}
	var exs []course.Exercise
	if len(opts.Exercises) == 0 {
		exs = Gradable()
	} else {
		for _, id := range opts.Exercises {
			e, ok := course.Lookup(id)
			if _, graded := suites[id]; !ok || !graded {
				return nil, fmt.Errorf("unknown exercise %q (the exercises are %s)", id, gradableList())
			}
			exs = append(exs, e)
		}
	}
	tmp, err := os.MkdirTemp(opts.TempDir, "ratelab-grade-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	g := &grading{opts: opts, tmp: tmp}

	ids := make([]string, len(exs))
	for i, e := range exs {
		ids[i] = e.ID
		opts.Progress(Event{Exercise: e.ID, Phase: PhaseBuild})
	}
	bin, broken, err := g.build(ctx, ids)
	if err != nil {
		return nil, err
	}
	r := &report.Report{Schema: report.Schema, Target: opts.Target, Seed: opts.Seed}
	r.Exercises = make([]report.Exercise, len(exs))
	var wg sync.WaitGroup
	turns := make(chan struct{}, cmp.Or(opts.Parallel, runtime.GOMAXPROCS(0)))
	for i, e := range exs {
		turns <- struct{}{}
		wg.Go(func() {
			defer func() { <-turns }()
			ex := &r.Exercises[i]
			*ex = report.Exercise{ID: e.ID, Week: e.Week, Title: e.Title, Checks: []report.Check{}}
			if msg, ok := broken[e.ID]; ok {
				SetCompileError(ex, msg)
				ex.Checks, _ = Plan(e.ID)
				for i := range ex.Checks {
					ex.Checks[i].Message = "not run: the code does not build."
				}
				finish(ex)
			} else {
				g.runExercise(ctx, bin, e.ID, ex)
			}
			if ctx.Err() == nil {
				g.opts.Progress(Event{Exercise: e.ID, Phase: PhaseExercise, Summary: ex})
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r.Total()
	return r, nil
}

// normalize fills in o's defaults and checks that its options agree.
func (o *Options) normalize() error {
	if o.Module == "" {
		o.Module = "ratelab"
	}
	if o.Target == "" {
		o.Target = "exercises"
	}
	if o.Target != "exercises" && o.Target != "solutions" {
		return fmt.Errorf("target %q: want exercises or solutions", o.Target)
	}
	if len(o.Replace) > 0 && o.Target != "exercises" {
		return fmt.Errorf("replacement sources only apply to the exercises tree")
	}
	if o.NoBench && o.BenchOnly {
		return fmt.Errorf("NoBench and BenchOnly together would run nothing: choose one")
	}
	if o.CheckTimeout == 0 {
		o.CheckTimeout = 20 * time.Second
	}
	if o.CallCPULimit == 0 {
		o.CallCPULimit = callCPULimit
	}
	if o.BenchTimeout == 0 {
		o.BenchTimeout = 60 * time.Second
	}
	if o.Progress == nil {
		o.Progress = func(Event) {}
	} else {
		o.Progress = oneAtATime(o.Progress)
	}
	return nil
}

// oneAtATime returns progress called by one goroutine at a time: the
// events of exercises graded at once take turns.
func oneAtATime(progress func(Event)) func(Event) {
	var mu sync.Mutex
	return func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		progress(e)
	}
}

// turn waits until a step of a grading (a check, the stub probe, the
// judgement) of kind may run, and returns what ends it: a benchmark check
// runs alone, any other step beside the other gradings' steps.
func (g *grading) turn(kind report.Kind) (done func()) {
	if kind == report.Benchmark {
		g.alone.Lock()
		return g.alone.Unlock
	}
	g.alone.RLock()
	return g.alone.RUnlock
}

// finish sets the exercise's score, maximum and status from its checks.
func finish(ex *report.Exercise) {
	ex.Total()
	if ex.Status == "" {
		ex.Status = ex.Graded()
	}
}

// ExitCode is labserver grade's exit status for r: 0 full marks, 1 graded
// without full marks, 2 some exercise could not be graded.
func ExitCode(r *report.Report) int {
	for _, e := range r.Exercises {
		if e.Status == report.Error {
			return 2
		}
	}
	if r.Score == r.MaxScore {
		return 0
	}
	return 1
}

func (g *grading) implPath(id string) string {
	return g.opts.Module + "/" + g.opts.Target + "/" + id
}

// served returns the import path of the package whose code the child
// serves under name (an exercise's id, or a variant's name: see
// GradeVariants) and the folder of its files.
func (g *grading) served(name string) (pkg, dir string) {
	if _, v, ok := strings.Cut(name, "~"); ok {
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= len(g.variants) {
			return "", ""
		}
		return g.variantPath(i), g.variants[i]
	}
	if d, ok := g.opts.Replace[name]; ok {
		return g.implPath(name), d
	}
	return g.implPath(name), filepath.Join(g.opts.Root, g.opts.Target, name)
}
