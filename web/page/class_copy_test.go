package page

import (
	"strings"
	"testing"

	"ratelab/internal/store"
)

// A possible copy is flagged on the submission's page and in the lists the
// dashboard shows; a superseded submission says so and waits for nothing.
func TestClassCopyFlagAndSuperseded(t *testing.T) {
	sub := ClassSubmission{ID: 7, Learner: "ada", Exercise: "tokenbucket", State: store.Done, MatchesSolution: true, SameAs: []string{"bob"}}
	doc := render(t, ClassSubmissionPage(ClassSubmissionView{Submission: sub, Instructor: true}, Assets{}))
	if got := text(one(t, doc, "copy-flag")); !strings.Contains(got, "reference solution") || !strings.Contains(got, "bob") {
		t.Errorf("copy flag = %q; want the solution and bob named", got)
	}
	doc = render(t, ClassDashboard(ClassDashboardView{Recent: []ClassSubmission{sub, {ID: 8, Learner: "cy", State: store.Queued}}}, Assets{}))
	if n := byTestID(doc, "copy-flag").Length(); n != 1 {
		t.Errorf("dashboard: %d copy flags; want 1", n)
	}
	old := ClassSubmission{ID: 6, State: store.Superseded, Error: "not graded: submission 7, a newer one"}
	doc = render(t, ClassSubmissionPage(ClassSubmissionView{Submission: old}, Assets{}))
	if got := text(one(t, doc, "superseded")); !strings.Contains(got, "submission 7") || doc.Find("[data-live-submission]").Length() != 0 {
		t.Errorf("superseded page: %q, live %d; want the reason, no live view", got, doc.Find("[data-live-submission]").Length())
	}
}

// A gradebook cell shows the best score out of the exercise's points, and
// the latest score when it is lower.
func TestCellTextShowsTheMaximum(t *testing.T) {
	for _, c := range []struct {
		cell ClassCell
		want string
	}{
		{ClassCell{Graded: true, Best: 10, Latest: 10, Max: 25}, "10 / 25"},
		{ClassCell{Graded: true, Best: 25, Latest: 18, Max: 25}, "25 / 25 (latest 18)"},
		{ClassCell{Graded: true, Best: 12.5, Latest: 12.5, Max: 35}, "12.5 / 35"},
		{ClassCell{State: store.Running}, "grading…"},
		{ClassCell{}, "—"},
	} {
		if got := cellText(c.cell); got != c.want {
			t.Errorf("cellText(%+v) = %q, want %q", c.cell, got, c.want)
		}
	}
}
