package class_test

import (
	"context"
	"testing"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store/storetest"
)

// The dashboard's events carry the cell's words (package cell), which
// class.js shows as they come: during a regrade the cell keeps its
// standing score, with a note that it is being graded, until the new
// result is stored whole; then the scores change, the note goes.
func TestEventsWordTheCellThroughARegrade(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		scores := make(chan float64)
		f := newClassOn(t, db, class.Config{}, func(ctx context.Context, _ grader.Options) (*report.Report, error) {
			r := result(report.Failed, "")
			select {
			case r.Exercises[0].Score = <-scores:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			r.Exercises[0].MaxScore = 25
			return r, nil
		})
		if _, err := f.c.Gradebook(t.Context()); err != nil { // a dashboard opened
			t.Fatal(err)
		}
		sub := f.submit(t, f.ada, okSource)
		if e := f.wait(t, sub.ID, event.Running); e.Cell == nil || e.Cell.Text != "grading…" || e.Cell.Note != "" {
			t.Errorf("first grading's running event: cell %+v; want text grading…, no note", e.Cell)
		}
		scores <- 10
		if e := f.waitDone(t, sub.ID); e.Cell == nil || e.Cell.Text != "10 / 25" || e.Cell.Note != "" {
			t.Errorf("first grading's done event: cell %+v; want 10 / 25, no note", e.Cell)
		}

		if n, err := f.c.Regrade(t.Context()); err != nil || n != 1 {
			t.Fatalf("Regrade = %d, %v; want 1", n, err)
		}
		// The regrade's grading waits for its score: the running event
		// is read while it runs.
		e := f.wait(t, sub.ID, event.Running)
		if e.Cell == nil || e.Cell.Text != "10 / 25" || e.Cell.Note != "grading…" || e.Cell.Best != 10 || e.Cell.Latest != 10 {
			t.Errorf("regrade's running event: cell %+v; want the standing 10 / 25 with the note grading…", e.Cell)
		}
		scores <- 5
		if e := f.waitDone(t, sub.ID); e.Cell == nil || e.Cell.Text != "10 / 25 (latest 5)" || e.Cell.Note != "" {
			t.Errorf("regrade's done event: cell %+v; want 10 / 25 (latest 5), no note", e.Cell)
		}
	})
}
