package class

import (
	"context"
	"errors"
	"sync"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/lab/course"
)

// A check (a draft graded without being submitted) stops at its first
// check that times out: a call of the learner's code that does not
// return (past --call-cpu of CPU time) or a check whose calls together
// pass --check-timeout. Graded to the end, code that spins in every call
// spins once per check that calls it: a dozen times --call-cpu for the
// token bucket, 17–27 s in which every other learner's check waited. Cut
// at the first, it spends one --call-cpu (2 s of CPU by default) spinning,
// or one --check-timeout for code slow in every call; the learner sees
// the check that timed out and the rest as not run. A submission, which
// counts, is still graded whole.

// errSpun cancels a check's grading at its first timeout.
var errSpun = errors.New("a check timed out: the rest of this check is not run")

// spinCut watches a check's progress and cancels its grading at the first
// check that times out. It is safe for concurrent use.
type spinCut struct {
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	results map[string]report.Check // the checks graded so far, by id
	at      string                  // the title of the check that timed out
}

// newSpinCut returns ctx, canceled by the returned cut at the first
// timeout it is told of.
func newSpinCut(ctx context.Context) (context.Context, *spinCut) {
	ctx, cancel := context.WithCancelCause(ctx)
	return ctx, &spinCut{cancel: cancel, results: map[string]report.Check{}}
}

// progress is told each event of the grading.
func (s *spinCut) progress(e grader.Event) {
	if e.Phase != grader.PhaseResult || e.Result == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results[e.Result.ID] = *e.Result
	if e.Result.Status == report.Timeout && s.at == "" {
		s.at = e.Result.Title
		s.cancel(errSpun)
	}
}

// cut reports whether ctx (newSpinCut's) was canceled by a timeout.
func (s *spinCut) cut(ctx context.Context) bool { return errors.Is(context.Cause(ctx), errSpun) }

// report is the exercise's result as the check stopped: the checks graded
// so far, the rest not run.
func (s *spinCut) report(exercise string) *report.Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, _ := course.Lookup(exercise)
	ex := report.Exercise{ID: e.ID, Week: e.Week, Title: e.Title, Checks: []report.Check{}}
	plan, _ := grader.Plan(exercise)
	for _, c := range plan {
		if got, ok := s.results[c.ID]; ok {
			c = got
		} else {
			c.Status, c.Score = report.Skipped, 0
			c.Message = "not run: this check stopped at \"" + s.at + "\", where your code did not return in time. Fix that and check again (a submission runs every check)."
		}
		ex.Checks = append(ex.Checks, c)
	}
	ex.Total()
	ex.Status = ex.Graded()
	ex.Message = "stopped at \"" + s.at + "\": a check ends at the first call of your code that does not return in time."
	r := &report.Report{Schema: report.Schema, Target: "exercises", Exercises: []report.Exercise{ex}}
	r.Total()
	return r
}
