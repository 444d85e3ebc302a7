package grader

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"time"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// child returns the child that serves name from bin, as the options say.
func (g *grading) child(ctx context.Context, bin, name string) *child {
	c := newChild(ctx, bin, name, g.tmp, g.opts.Sandbox)
	c.callLimit = g.opts.CallCPULimit
	c.noAhead = g.opts.OneByOne
	c.counts = g.opts.Counts
	return c
}

// runExercise runs every check of ex in the grader's process, against the
// learner's code served, under name (the exercise's id, or a variant's
// name: see GradeVariants), by a child built into bin. A check that loses the
// child (a timeout, a crash) is reported as such, and the next check starts
// a new one.
func (g *grading) runExercise(ctx context.Context, bin, name string, ex *report.Exercise) {
	c := g.child(ctx, bin, name)
	// A call that does not return is named with the contract's names for
	// its arguments: the stub's.
	c.params = paramNames(filepath.Join(g.opts.Root, "exercises", ex.ID))
	// A budget that allocates is profiled: in the learner's files alone.
	pkg, dir := g.served(name)
	c.pkg, c.files = pkg, sourceFiles(dir)
	defer c.stop()
	s := suites[ex.ID](c)
	ex.Checks = make([]report.Check, len(s.Checks))
	for i, chk := range s.Checks {
		ex.Checks[i] = chk.Result(check.Outcome{Status: report.Skipped})
	}
	defer finish(ex)

	done := g.turn(report.Property)
	c.arm(g.opts.CheckTimeout)
	notStarted := s.NotStarted != nil && guard(s.NotStarted)
	l := c.takeLost()
	done()
	if l != nil {
		if l.kind != lostTimeout || l.call == "" {
			ex.Status = report.Error
			ex.Message = "the grading program stopped before running any check: " + l.describe(c.limit)
			ex.Fault = l.fault()
			return
		}
		// A call of the probe did not return: not the stub, whose every
		// call panics at once. The checks are graded, each reporting the
		// call it finds that does not return, if it reaches one.
		notStarted = false
	}
	if notStarted {
		ex.Status = report.NotStarted
		ex.Message = "still the stub: implement it, then run make grade again."
		for i := range ex.Checks {
			ex.Checks[i].Message = "not run: the exercise is not started."
		}
		return
	}
	outs := make([]check.Outcome, len(s.Checks))
	for i, chk := range s.Checks {
		if ctx.Err() != nil {
			return
		}
		g.opts.Progress(Event{Exercise: ex.ID, Phase: PhaseStart, Check: chk.ID})
		var o check.Outcome
		switch {
		case g.opts.NoBench && chk.Kind == report.Benchmark:
			o = check.Outcome{Status: report.Skipped, Message: "benchmarks were skipped (--no-bench)."}
		case g.opts.BenchOnly && chk.Kind != report.Benchmark:
			o = check.Outcome{Status: report.Skipped, Message: "not run: this pass runs the benchmarks only."}
		default:
			done := g.turn(chk.Kind)
			c.arm(g.deadline(chk.Kind))
			if chk.Kind != report.Benchmark {
				// A property meets at most check.MaxHangs calls that do
				// not return; one more for the replays that judge what
				// it found.
				c.hangs = check.MaxHangs + 1
			}
			o = runOne(chk, g.opts.Seed)
			c.hangs = 0
			if l := c.takeLost(); l != nil {
				o = l.outcome(c.limit)
			}
			done()
		}
		outs[i] = o
		ex.Checks[i] = chk.Result(o)
		g.opts.Progress(Event{Exercise: ex.ID, Phase: PhaseResult, Result: &ex.Checks[i]})
	}
	// The exercise's mistakes settle what each check scores: a check whose
	// result that changes is reported again.
	done = g.turn(report.Property)
	c.arm(g.opts.CheckTimeout)
	judged := s.Judge(g.opts.Seed, outs)
	c.takeLost()
	done()
	for i, o := range judged {
		if r := s.Checks[i].Result(o); !reflect.DeepEqual(r, ex.Checks[i]) {
			ex.Checks[i] = r
			g.opts.Progress(Event{Exercise: ex.ID, Phase: PhaseResult, Result: &ex.Checks[i]})
		}
	}
}

// guard runs f, which calls the learner's code through the child; if the
// child is lost on the way, the caller finds out from takeLost.
func guard(f func() bool) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, lost := r.(*lostError); !lost {
				panic(r)
			}
			ok = false
		}
	}()
	return f()
}

// runOne runs c. A panic that escapes the check's own guards is the child
// being lost (the caller reports it) or a bug in a suite.
func runOne(c check.Check, seed int64) (o check.Outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = check.Outcome{Status: report.Error, Message: fmt.Sprintf("the check panicked: %v", r)}
			if h, ok := r.(check.Hang); ok {
				o = check.Outcome{Status: report.Timeout, Message: h.Message}
			}
		}
	}()
	return c.Run(seed)
}

// outcome is the check's outcome when the child was lost during it.
func (l *lostError) outcome(limit time.Duration) check.Outcome {
	if l.kind == lostTimeout {
		return check.Outcome{Status: report.Timeout, Message: l.describe(limit)}
	}
	return check.Outcome{Status: report.Error, Message: l.describe(limit)}
}

// describe says what happened, in the learner's terms.
func (l *lostError) describe(limit time.Duration) string {
	switch l.kind {
	case lostTimeout:
		const why = "an endless loop, or work that grows with the arguments (one step per token, per nanosecond or per bucket)"
		switch {
		case l.call != "" && l.cpu > 0:
			return fmt.Sprintf("%s did not return within %s of CPU time: %s.", l.call, l.cpu, why)
		case l.call != "" && l.whole:
			return fmt.Sprintf("the check's calls used up its %s of CPU time together (the last was %s): %s.", limit, l.call, why)
		case l.call != "" && l.blocked:
			return fmt.Sprintf("%s had not returned, and was not running, when the check's %s were up: it waits for something that never comes (a lock, a channel, a sleep).", l.call, limit)
		case l.call != "":
			return fmt.Sprintf("%s had not returned when the check's %s were up: %s.", l.call, limit, why)
		}
		// No call to name: the program never started serving.
		return fmt.Sprintf("the program did not start within %s: its init functions (or a package variable's initial value) ran all that time.", limit)
	case lostCrash:
		msg := "the program crashed while running this check (a panic in another goroutine, a stack overflow, os.Exit or running out of memory)"
		if l.detail != "" {
			msg += ":\n" + l.detail
		}
		return msg
	case lostCanceled:
		return "grading was cancelled: " + l.detail
	}
	return l.detail
}

// deadline is how long one check of the given kind may take.
func (g *grading) deadline(kind report.Kind) time.Duration {
	if kind == report.Benchmark {
		return g.opts.BenchTimeout
	}
	return g.opts.CheckTimeout
}
