package class_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/store"
)

// TestACheckStopsAtItsFirstTimeout: a check (a draft graded, not
// submitted) whose code spins stops at the first check that times out:
// no check of it starts after that one, so it spends one call's CPU budget
// spinning, not one per check, before the next learner's turn. A
// submission of the same code is graded to the end. The grading here
// stands in for the grader: each check's result as it would come, the
// second one a call that did not return.
func TestACheckStopsAtItsFirstTimeout(t *testing.T) {
	plan, err := grader.Plan("tokenbucket")
	if err != nil || len(plan) < 4 {
		t.Fatalf("the token bucket's plan: %d checks, %v; want several", len(plan), err)
	}
	var mu sync.Mutex
	started := map[string]int{} // the checks each grading started, by its source
	f := newClassOn(t, t.TempDir()+"/class.db", class.Config{}, func(ctx context.Context, o grader.Options) (*report.Report, error) {
		ex := report.Exercise{ID: "tokenbucket", Checks: []report.Check{}}
		for i, c := range plan {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			mu.Lock()
			started[o.Replace["tokenbucket"]]++
			mu.Unlock()
			o.Progress(grader.Event{Exercise: "tokenbucket", Phase: grader.PhaseStart, Check: c.ID})
			c.Status, c.Score = report.Passed, c.MaxScore
			if i == 1 {
				c.Status, c.Score, c.Message = report.Timeout, 0, "Available(nowNs=5) did not return within 2s of CPU time"
			}
			ex.Checks = append(ex.Checks, c)
			o.Progress(grader.Event{Exercise: "tokenbucket", Phase: grader.PhaseResult, Result: &ex.Checks[i]})
		}
		ex.Total()
		ex.Status = ex.Graded()
		return &report.Report{Exercises: []report.Exercise{ex}}, nil
	})
	files := []store.File{{Name: "tokenbucket.go", Content: []byte("package tokenbucket // spins")}}
	chk, err := f.c.Check(t.Context(), f.ada, "tokenbucket", files)
	if err != nil {
		t.Fatal(err)
	}
	done := f.checkDone(t, chk.ID)
	sub := f.submit(t, f.ada, "package tokenbucket // spins")
	subDone := f.waitDone(t, sub.ID)

	mu.Lock()
	var counts []int
	for _, n := range started {
		counts = append(counts, n)
	}
	mu.Unlock()
	if len(counts) != 2 || min(counts[0], counts[1]) != 2 || max(counts[0], counts[1]) != len(plan) {
		t.Errorf("checks started by the check and the submission: %v; want 2 (stopped at the timeout) and all %d", counts, len(plan))
	}
	ex := done.Summary
	if ex == nil || len(ex.Checks) != len(plan) {
		t.Fatalf("the check's result: %+v; want every check of the plan", ex)
	}
	if ex.Checks[0].Status != report.Passed || ex.Checks[1].Status != report.Timeout || ex.Score != plan[0].MaxScore || ex.Status != report.Failed {
		t.Errorf("the check's result: %s %v/%v, checks %s, %s; want failed with the first check's points, passed then timeout", ex.Status, ex.Score, ex.MaxScore, ex.Checks[0].Status, ex.Checks[1].Status)
	}
	for _, c := range ex.Checks[2:] {
		if c.Status != report.Skipped || !strings.Contains(c.Message, "stopped at \""+plan[1].Title+"\"") {
			t.Errorf("check %s after the timeout: %s %q; want skipped, naming where it stopped", c.ID, c.Status, c.Message)
		}
	}
	if s := subDone.Summary; s == nil || s.Checks[len(plan)-1].Status != report.Passed {
		t.Errorf("the submission's result: %+v; want every check graded", s)
	}
}
