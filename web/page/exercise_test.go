package page

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/lab/course"
)

func TestExercisePageWithReport(t *testing.T) {
	ex, _ := course.Lookup("tokenbucket")
	g := &Graded{Result: failingTokenBucket(), SavedAt: saved, Seed: 7}
	doc := render(t, ExercisePage(ex, g, Assets{}))

	if got := text(one(t, doc, "exercise-title")); got != "Token bucket" {
		t.Errorf("exercise-title = %q", got)
	}
	if got := one(t, doc, "api").Text(); !strings.Contains(got, "func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool") {
		t.Errorf("api block lacks TryAcquire's signature:\n%s", got)
	}
	if got := text(one(t, doc, "grade-tokenbucket")); got != "failed" {
		t.Errorf("grade-tokenbucket = %q, want failed", got)
	}
	if got := text(one(t, doc, "score")); got != "20 / 35 points" {
		t.Errorf("score = %q", got)
	}

	check := one(t, doc, "check-tokenbucket/fractional-tokens")
	for sel, want := range map[string]string{
		`[data-testid="points"]`:   "0 / 5 pts",
		`[data-testid="pitfall"]`:  "pitfall: fractional-tokens",
		`[data-testid="message"]`:  "the fraction was dropped",
		`[data-testid="hint"]`:     "Hint: keep units",
		`[data-testid="cx-setup"]`: "New(capacity=1, ratePerSec=1000, nowNs=0)",
	} {
		if got := text(check.Find(sel)); got != want {
			t.Errorf("fractional-tokens %s = %q, want %q", sel, got, want)
		}
	}
	rows := check.Find(`[data-testid="counterexample"] tbody tr`)
	if rows.Length() != 2 {
		t.Fatalf("%d counterexample rows, want 2", rows.Length())
	}
	fail := rows.Eq(1)
	if id, _ := fail.Attr("data-testid"); id != "failing-step" || !fail.HasClass("cx-fail") {
		t.Errorf("last row data-testid=%q class=%q; want the highlighted failing step", id, fail.AttrOr("class", ""))
	}
	if id, _ := rows.Eq(0).Attr("data-testid"); id != "step" {
		t.Errorf("first row data-testid = %q, want step", id)
	}
	cells := fail.Find("td").Map(func(_ int, td *goquery.Selection) string { return text(td) })
	if got := strings.Join(cells, "|"); got != "2|Available(nowNs=1200000)|0 (differs)|1" {
		t.Errorf("failing row = %q", got)
	}

	bench := one(t, doc, "check-tokenbucket/budget")
	for id, want := range map[string]string{"ns-per-op": "52.3 ns", "budget-ns": "40 ns", "allocs-per-op": "1", "ref-ns-per-op": "11.8 ns"} {
		got := bench.Find(`[data-testid="` + id + `"]`)
		if text(got) != want {
			t.Errorf("budget %s = %q, want %q", id, text(got), want)
		}
	}
	if !bench.Find(`[data-testid="ns-per-op"]`).HasClass("over") || !bench.Find(`[data-testid="allocs-per-op"]`).HasClass("over") {
		t.Error("over-budget figures are not marked over")
	}

	// The passed check is there, behind the failing ones.
	if byTestID(doc, "checks-passed").Find(`[data-testid="check-tokenbucket/capacity"]`).Length() != 1 {
		t.Error("the passing check is not listed among the passed ones")
	}
	if byTestID(doc, "no-report").Length() != 0 {
		t.Error("says not graded although a report is given")
	}
	if !strings.Contains(text(one(t, doc, "how-to-grade")), "go run ./cmd/labserver grade --exercise tokenbucket") {
		t.Error("how-to-grade lacks the command for this exercise")
	}
}

// A grade of code that does not build shows the compiler's lines one per
// line, as the compiler wrote them, not run together in a paragraph.
func TestExercisePageKeepsTheCompilersLines(t *testing.T) {
	ex, _ := course.Lookup("gcra")
	lines := "exercises/gcra/gcra.go:3:2: undefined: y\nexercises/gcra/gcra.go:9:1: missing return"
	r := report.Exercise{ID: "gcra", Checks: []report.Check{}}
	grader.SetCompileError(&r, lines)
	doc := render(t, ExercisePage(ex, &Graded{Result: r, SavedAt: saved, Seed: 1}, Assets{}))
	msg := one(t, doc, "exercise-message")
	if got := text(msg.Find("p")); got != "error: does not build:" {
		t.Errorf("the message's first line = %q; want error: does not build:", got)
	}
	pre := msg.Find(`pre[data-testid="exercise-message-lines"]`)
	if pre.Length() != 1 || pre.Text() != lines {
		t.Errorf("the compiler's lines = %d pre, %q; want one pre of %q", pre.Length(), pre.Text(), lines)
	}
}

func TestExercisePageWithoutReport(t *testing.T) {
	for _, ex := range course.Exercises() {
		doc := render(t, ExercisePage(ex, nil, Assets{}))
		if !strings.Contains(text(one(t, doc, "no-report")), "make grade") {
			t.Errorf("%s: the no-report notice does not say how to grade", ex.ID)
		}
		if byTestID(doc, "report").Length() != 0 {
			t.Errorf("%s: shows a report it was not given", ex.ID)
		}
		if _, generated := exerciseAPI[ex.ID]; !generated {
			// Declared before its stub exists: api_gen.go says so, and
			// TestExerciseAPI fails once the stub is there and not
			// generated.
			t.Logf("%s: no stub yet, so no API block", ex.ID)
			continue
		}
		if byTestID(doc, "api").Length() != 1 {
			t.Errorf("%s: no API block", ex.ID)
		}
	}
}

// Under make run the lab grades each save and pushes it to the pages: the
// pages say so, and send nobody to make grade and a reload; a server that
// does not watch exercises/ does.
func TestPagesSayHowToGetAGrade(t *testing.T) {
	ex, _ := course.Lookup("gcra")
	live := Assets{}.WithLive()
	if got := text(one(t, render(t, ExercisePage(ex, nil, live)), "no-report")); !strings.Contains(got, "Save a file under exercises/gcra") || strings.Contains(got, "reload") {
		t.Errorf("live no-report notice = %q; want it to say a save grades it, with no reload", got)
	}
	if got := text(one(t, render(t, ExercisePage(ex, nil, Assets{})), "no-report")); !strings.Contains(got, "then reload this page") {
		t.Errorf("no-report notice without the live loop = %q; want make grade, then a reload", got)
	}
	home := render(t, HomePage(Home{}, live))
	if got := text(one(t, home, "grade-gcra")); got != "not graded yet: save a file in exercises/gcra" {
		t.Errorf("live home badge = %q", got)
	}
	if steps := text(home.Find(".steps")); strings.Contains(steps, "Reload") {
		t.Errorf("live home steps = %q; want no reload", steps)
	}
}

func TestFailingStep(t *testing.T) {
	cases := []struct {
		steps []report.Step
		want  int
	}{
		{nil, -1},
		{[]report.Step{{Got: "1", Want: "1"}}, -1},
		{[]report.Step{{Got: "0", Want: "1"}, {Got: "1", Want: "1"}}, 0},
		{[]report.Step{{Got: "0", Want: "1"}, {Got: "0", Want: "1"}}, 1},
	}
	for _, c := range cases {
		if got := failingStep(&report.Counterexample{Steps: c.steps}); got != c.want {
			t.Errorf("failingStep(%v) = %d, want %d", c.steps, got, c.want)
		}
	}
	if got := failingStep(nil); got != -1 {
		t.Errorf("failingStep(nil) = %d, want -1", got)
	}
}
