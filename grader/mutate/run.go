package mutate

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"ratelab/grader"
	"ratelab/grader/check"
	"ratelab/grader/mutate/hunt"
	"ratelab/grader/report"
)

// Options says what Run mutates and how.
type Options struct {
	Root      string   // the module's directory (holding go.mod)
	Exercises []string // the exercises to mutate; nil means every gradable one
	// Jobs is how many mutants are graded (or hunted) at once; 0 means
	// GOMAXPROCS.
	Jobs int
	// Scripts is how many scripts a hunt replays on a mutant that lived;
	// 0 means 1,000,000.
	Scripts int
	Seed    int64 // the grading's property seed; 0 means grader.DefaultSeed
	// CheckTimeout bounds one check of a grading; 0 means the grader's
	// own default.
	CheckTimeout time.Duration
	// Watchdog is how long one script of a hunt may run before the mutant
	// counts as hung; 0 means 30s.
	Watchdog time.Duration
	// Listings are the mutants listed as equivalent (see ParseListings).
	Listings []Listing
	// Full grades every check of each mutant, so that By names every
	// check that fails and the mistakes diagnosed; without it a grading
	// stops at the first failed check (the mutant is killed either way).
	Full bool
	// Only, if not "", keeps the mutants whose String contains it
	// ("tokenbucket.go:65:"): to look at a few while writing a generator.
	Only string
	// Log, if set, is told of each mutant as it is settled.
	Log io.Writer
}

// Verdict is what became of a mutant.
type Verdict string

// The verdicts.
const (
	Stillborn  Verdict = "stillborn"  // does not compile
	Killed     Verdict = "killed"     // graded below full marks
	Equivalent Verdict = "equivalent" // lived, listed, and no script of a hunt kills it
	Lived      Verdict = "lived"      // graded with full marks, and not listed (or listed wrongly)
)

// Outcome is what Run found for one mutant.
type Outcome struct {
	Exercise string
	Mutant   Mutant
	Verdict  Verdict
	// By says what killed it (a check of the grading, or a hunt's
	// script), or why it is stillborn.
	By string
	// Hunt is the hunt of a mutant that lived the grading; HuntErr says
	// why there is none.
	Hunt    *hunt.Result
	HuntErr string
	HuntCPU time.Duration // the hunt program's CPU time
	// Listing is its line in the equivalence list, if it has one; Wrong
	// says why that line is wrong (the grading or a script kills it).
	Listing *Listing
	Wrong   string
	Elapsed time.Duration // the grading and hunt of this mutant
}

// Result is what Run found for one exercise.
type Result struct {
	Exercise string
	Outcomes []Outcome // in the order of Package.Mutants
	// Baseline is how the reference itself fares, if not at full marks
	// (the checks it fails are not held against mutants).
	Baseline string
	Stale    []Listing // listings that name no mutant of the exercise
}

// Count returns how many of r's mutants have verdict v.
func (r Result) Count(v Verdict) int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Verdict == v {
			n++
		}
	}
	return n
}

// Summary is the line scripts read: "mutants EXERCISE: killed K,
// equivalent E, lived L".
func (r Result) Summary() string {
	return fmt.Sprintf("mutants %s: killed %d, equivalent %d, lived %d", r.Exercise, r.Count(Killed), r.Count(Equivalent), r.Count(Lived))
}

// Clean reports whether r has nothing left to do: no mutant lived, no
// listing is wrong or stale, the reference is at full marks.
func (r Result) Clean() bool {
	if r.Count(Lived) > 0 || len(r.Stale) > 0 || r.Baseline != "" {
		return false
	}
	for _, o := range r.Outcomes {
		if o.Wrong != "" {
			return false
		}
	}
	return true
}

type exercise struct {
	id       string
	pkg      *Package
	baseline map[string]report.Status // each check's status on the reference
	score    float64                  // the reference's score
}

// Run mutates the reference of each exercise (solutions/<id>), grades
// every mutant that compiles with the grader (behaviour only: no
// benchmarks) and hunts every one that lives (see package hunt), Jobs at a
// time. A grading stops at the first check that fails where the reference
// passes: the mutant is killed, and the rest would only say how.
func Run(ctx context.Context, opts Options) ([]Result, error) {
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.GOMAXPROCS(0)
	}
	if opts.Scripts <= 0 {
		opts.Scripts = 1_000_000
	}
	if opts.Seed == 0 {
		opts.Seed = grader.DefaultSeed
	}
	if opts.Watchdog <= 0 {
		opts.Watchdog = 30 * time.Second
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	ids := opts.Exercises
	if len(ids) == 0 {
		for _, e := range grader.Gradable() {
			ids = append(ids, e.ID)
		}
	}
	var exs []*exercise
	for _, id := range ids {
		pkg, err := Load(filepath.Join(opts.Root, "solutions", id))
		if err != nil {
			return nil, err
		}
		exs = append(exs, &exercise{id: id, pkg: pkg})
	}
	results := make([]Result, len(exs))
	type job struct {
		ex  int
		out *Outcome
	}
	var jobs []job
	for i, ex := range exs {
		results[i].Exercise = ex.id
		for _, m := range ex.pkg.Mutants() {
			if !strings.Contains(m.String(), opts.Only) {
				continue
			}
			results[i].Outcomes = append(results[i].Outcomes, Outcome{Exercise: ex.id, Mutant: m})
		}
		keys := map[string]bool{}
		for j := range results[i].Outcomes {
			o := &results[i].Outcomes[j]
			keys[ex.id+" "+o.Mutant.String()] = true
			for k, l := range opts.Listings {
				if l.Key() == ex.id+" "+o.Mutant.String() {
					o.Listing = &opts.Listings[k]
				}
			}
			if o.Mutant.Stillborn != "" {
				o.Verdict, o.By = Stillborn, o.Mutant.Stillborn
				if o.Listing != nil {
					o.Wrong = "listed as equivalent, but it does not compile"
				}
				continue
			}
			jobs = append(jobs, job{i, o})
		}
		for _, l := range opts.Listings {
			if l.Exercise == ex.id && !keys[l.Key()] && opts.Only == "" {
				results[i].Stale = append(results[i].Stale, l)
			}
		}
	}

	// The references first, each graded as its mutants are, so that a
	// check the reference fails is not held against them.
	var wg sync.WaitGroup
	errs := make([]error, len(exs))
	sem := make(chan struct{}, opts.Jobs)
	for i, ex := range exs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = ex.gradeReference(ctx, opts)
			if f := failing(ex.baseline); f != "" {
				results[i].Baseline = "the reference itself fails " + f
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}

	// An error (the grader cannot build, the machine is out of space)
	// stops the run: the mutants after it would fail alike.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	done := 0
	next := make(chan job)
	var runErr error
	for range opts.Jobs {
		wg.Go(func() {
			for j := range next {
				err := exs[j.ex].settle(ctx, opts, j.out)
				mu.Lock()
				done++
				if err != nil && runErr == nil {
					runErr = fmt.Errorf("%s %s: %w", j.out.Exercise, j.out.Mutant, err)
					cancel()
				}
				fmt.Fprintf(opts.Log, "[%d/%d] %s %s: %s%s (%s%s)\n", done, len(jobs), j.out.Exercise, j.out.Mutant, j.out.Verdict, by(j.out), j.out.Elapsed.Round(100*time.Millisecond), hunted(j.out))
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	if runErr == nil {
		runErr = ctx.Err()
	}
	return results, runErr
}

// hunted says how much a mutant's hunt replayed, in how much CPU time.
func hunted(o *Outcome) string {
	if o.Hunt == nil {
		return ""
	}
	return fmt.Sprintf("; hunted with %s scripts in %s of CPU time", check.Count(o.Hunt.Scripts), o.HuntCPU.Round(100*time.Millisecond))
}

func by(o *Outcome) string {
	if o.By == "" {
		return ""
	}
	return " by " + o.By
}

// gradeReference grades the reference as the mutants are graded and keeps
// each check's status.
func (ex *exercise) gradeReference(ctx context.Context, opts Options) error {
	r, err := grader.Grade(ctx, ex.options(opts, ex.pkg.Dir, nil))
	if err != nil {
		return fmt.Errorf("grading the %s reference: %w", ex.id, err)
	}
	e := r.Exercises[0]
	if e.Status == report.Error || e.Status == report.NotStarted {
		return fmt.Errorf("grading the %s reference: %s: %s", ex.id, e.Status, e.Message)
	}
	ex.baseline, ex.score = map[string]report.Status{}, e.Score
	for _, c := range e.Checks {
		ex.baseline[c.ID] = c.Status
	}
	return nil
}

func (ex *exercise) options(opts Options, dir string, progress func(grader.Event)) grader.Options {
	return grader.Options{
		Root: opts.Root, Target: "exercises", Replace: map[string]string{ex.id: dir},
		Exercises: []string{ex.id}, Seed: opts.Seed, NoBench: true,
		CheckTimeout: opts.CheckTimeout, Progress: progress,
	}
}

// bad reports whether a check's status loses points (a skipped check does
// too, but the reference's benchmarks are skipped alike).
func bad(s report.Status) bool {
	return s == report.Failed || s == report.Error || s == report.Timeout
}

// settle grades o's mutant and, if it lives, hunts it; it sets o's
// verdict. An error means the grader or the hunt could not run at all.
func (ex *exercise) settle(ctx context.Context, opts Options, o *Outcome) error {
	start := time.Now()
	defer func() { o.Elapsed = time.Since(start) }()
	dir, err := os.MkdirTemp("", "ratelab-mutant-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := ex.pkg.Write(o.Mutant, dir); err != nil {
		return err
	}
	killed, by, err := ex.grade(ctx, opts, dir)
	if err != nil {
		o.Verdict, o.By = Lived, "nothing: "+err.Error()
		return err
	}
	if killed == Stillborn || killed == Killed {
		o.Verdict, o.By = killed, by
		if o.Listing != nil {
			o.Wrong = "listed as equivalent, but grading kills it (" + by + ")"
		}
		return nil
	}
	o.Verdict = Lived
	bin := filepath.Join(dir, "hunt", "hunt")
	if err := buildHunt(ctx, opts.Root, ex.id, dir, bin); err != nil {
		o.HuntErr = err.Error()
		return nil
	}
	// A hunt replays about 10^4 to 10^5 scripts a second: an hour is
	// far beyond any that does not hang.
	r, cpu, err := runHunt(ctx, bin, opts.Scripts, opts.Seed, opts.Watchdog, time.Hour)
	o.HuntCPU = cpu
	if err != nil {
		o.HuntErr = err.Error()
		return nil
	}
	o.Hunt = &r
	switch {
	case r.Killed:
		o.By = "a hunt's script (" + r.Check + ")"
		if o.Listing != nil {
			o.Wrong = "listed as equivalent, but a script kills it"
		}
	case o.Listing != nil:
		o.Verdict = Equivalent
	}
	return nil
}

// grade grades the package in dir; the verdict is Killed (by the first
// check that failed where the reference passed), Stillborn or Lived.
func (ex *exercise) grade(ctx context.Context, opts Options, dir string) (Verdict, string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var by string
	progress := func(e grader.Event) {
		if !opts.Full && e.Phase == grader.PhaseResult && by == "" && bad(e.Result.Status) && !bad(ex.baseline[e.Result.ID]) {
			by = e.Result.ID + " (" + string(e.Result.Status) + ")"
			cancel()
		}
	}
	r, err := grader.Grade(ctx, ex.options(opts, dir, progress))
	if by != "" {
		return Killed, by, nil
	}
	if err != nil {
		return "", "", err
	}
	e := r.Exercises[0]
	lines, notBuilt := e.CompilerLines()
	switch {
	case notBuilt:
		msg := firstLine(lines)
		if !slices.ContainsFunc(ex.pkg.names, func(n string) bool { return strings.HasPrefix(msg, n+":") }) {
			// Not the mutant's error: the grader itself, or another
			// package it links, does not build.
			return "", "", fmt.Errorf("the grading program does not build: %s", msg)
		}
		return Stillborn, msg, nil
	case e.Status == report.Error || e.Status == report.NotStarted:
		return Killed, string(e.Status) + ": " + firstLine(e.Message), nil
	}
	var failed []string
	for _, c := range e.Checks {
		if bad(c.Status) && !bad(ex.baseline[c.ID]) {
			d := string(c.Status)
			if len(c.Mistakes) > 0 {
				d += ", " + strings.Join(c.Mistakes, " or ")
			} else if c.Diagnosis != "" {
				d += ", " + string(c.Diagnosis)
			}
			failed = append(failed, c.ID+" ("+d+")")
		}
	}
	switch {
	case len(failed) > 0:
		return Killed, strings.Join(failed, ", "), nil
	case e.Score < ex.score:
		return Killed, fmt.Sprintf("the score, %s of %s", fmtScore(e.Score), fmtScore(ex.score)), nil
	}
	return Lived, "", nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func fmtScore(f float64) string { return fmt.Sprintf("%g", f) }

// failing lists the checks the reference fails, by id.
func failing(baseline map[string]report.Status) string {
	var out []string
	for id, s := range baseline {
		if bad(s) {
			out = append(out, id+" ("+string(s)+")")
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}
