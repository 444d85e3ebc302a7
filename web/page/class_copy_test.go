package page

import (
	"strings"
	"testing"

	"ratelab/internal/class/cell"
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
		{ClassCell{Standing: cell.Standing{Graded: true, Best: 10, Latest: 10, Max: 25}}, "10 / 25"},
		{ClassCell{Standing: cell.Standing{Graded: true, Best: 25, Latest: 18, Max: 25}}, "25 / 25 (latest 18)"},
		{ClassCell{Standing: cell.Standing{Graded: true, Best: 12.5, Latest: 12.5, Max: 35}}, "12.5 / 35"},
		{ClassCell{Standing: cell.Standing{State: store.Running}}, "grading…"},
		{ClassCell{}, "—"},
	} {
		if got := c.cell.Text(); got != c.want {
			t.Errorf("the text of %+v = %q, want %q", c.cell, got, c.want)
		}
	}
}

// The pitfalls are one table of the pitfalls hit, a row per exercise and
// pitfall with its count shaded and linked to the submissions behind it,
// sortable from buttons in its headers; the exercises with none hit take
// one line, not a card each.
func TestClassPitfallsTable(t *testing.T) {
	ps := []ClassPitfalls{
		{Exercise: "tokenbucket", Title: "Token bucket", Graded: 3, Counts: []ClassPitfallCount{{"capacity", 3}, {"backward-time", 1}}},
		{Exercise: "gcra", Title: "GCRA", Graded: 2},
		{Exercise: "throttle", Title: "Throttle", Graded: 4, Counts: []ClassPitfallCount{{"status", 2}}},
		{Exercise: "breaker", Title: "Breaker"},
	}
	doc := render(t, ClassDashboard(ClassDashboardView{Pitfalls: ps}, Assets{}))
	if n := doc.Find("[data-pitfalls-section] .card").Length(); n != 0 {
		t.Errorf("%d pitfall cards; want none", n)
	}
	rows := doc.Find("[data-testid=pitfall-table] tbody tr")
	if rows.Length() != 3 {
		t.Fatalf("%d rows; want one per pitfall hit, 3", rows.Length())
	}
	for _, c := range []struct {
		row, level, count, href string
	}{
		{"pitfall-tokenbucket-capacity", "4", "3", "/class/submissions?exercise=tokenbucket&pitfall=capacity"},
		{"pitfall-tokenbucket-backward-time", "2", "1", "/class/submissions?exercise=tokenbucket&pitfall=backward-time"},
		{"pitfall-throttle-status", "2", "2", "/class/submissions?exercise=throttle&pitfall=status"},
	} {
		td := one(t, doc, c.row).Find("[data-testid=pitfall-count]")
		href, _ := td.Find("a").Attr("href")
		level, _ := td.Attr("data-level")
		if got := text(td.Find("a")); got != c.count || level != c.level || href != c.href {
			t.Errorf("%s: count %q, level %q, link %q; want %s, %s, %s", c.row, got, level, href, c.count, c.level, c.href)
		}
	}
	if got := text(one(t, doc, "pitfalls-quiet")); got != "No pitfall hit yet: GCRA (2 graded), Breaker (0 graded)" {
		t.Errorf("quiet line = %q", got)
	}
	for _, key := range []string{"exercise", "count"} {
		th := doc.Find("th[data-sort-key=" + key + "]")
		if th.Find("button[data-sort="+key+"]").Length() != 1 {
			t.Errorf("the %s column has no sort button", key)
		}
	}
	if sort, _ := doc.Find("th[data-sort-key=exercise]").Attr("aria-sort"); sort != "ascending" {
		t.Errorf("exercise column aria-sort = %q; want ascending (the order the page opens in)", sort)
	}
}
