package page

import (
	"strings"
	"testing"

	"ratelab/grader/report"
	"ratelab/lab/course"
)

func TestHomePage(t *testing.T) {
	home := Home{Grades: map[string]Graded{
		"tokenbucket": {Result: failingTokenBucket(), SavedAt: saved, Seed: 1},
		"gcra":        {Result: report.Exercise{ID: "gcra", Status: report.Passed, Score: 30, MaxScore: 30}, SavedAt: saved},
	}}
	doc := render(t, HomePage(home, Assets{}))
	for _, w := range course.Weeks() {
		week := one(t, doc, w.Lesson.Slug)
		link := week.Find(`[data-testid="lesson-link-` + w.Lesson.Slug + `"]`)
		if href, _ := link.Attr("href"); href != "/lessons/"+w.Lesson.Slug {
			t.Errorf("week %d lesson link href = %q", w.Number, href)
		}
		for _, e := range w.Exercises {
			if week.Find(`[data-testid="exercise-`+e.ID+`"]`).Length() != 1 {
				t.Errorf("week %d does not list exercise %s", w.Number, e.ID)
			}
		}
	}
	cases := []struct{ id, want string }{
		{"tokenbucket", "failed · 20 / 35 graded 2 Mar 2026, 09:30 UTC"},
		{"gcra", "passed · 30 / 30"},
		{"slidingwindow", "not graded yet — run make grade"},
	}
	for _, c := range cases {
		if got := text(one(t, doc, "grade-"+c.id)); !strings.Contains(got, c.want) {
			t.Errorf("grade-%s = %q, want it to contain %q", c.id, got, c.want)
		}
	}
	if byTestID(doc, "grade-tokenbucket").Find(".badge--failed").Length() != 1 {
		t.Error("the failed grade is not styled as failed")
	}
	// Landmarks: one main, a labelled navigation, one h1.
	if doc.Find("main#main").Length() != 1 || doc.Find(`nav[aria-label="Course"]`).Length() != 1 || doc.Find("h1").Length() != 1 {
		t.Error("home page lacks its landmarks (main#main, nav[aria-label=Course], one h1)")
	}
	if doc.Find(`script`).Length() != 0 {
		t.Error("home page loads scripts; it has no visualization")
	}
}
