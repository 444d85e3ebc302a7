package page

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/weekbuild"
	"ratelab/lab/course"
)

// render renders c and parses the HTML.
func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatalf("Render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatalf("parsing the rendered HTML: %v", err)
	}
	return doc
}

// byTestID returns the elements with that data-testid.
func byTestID(doc *goquery.Document, id string) *goquery.Selection {
	return doc.Find(`[data-testid="` + id + `"]`)
}

// one returns the one element with that data-testid, failing otherwise.
func one(t *testing.T, doc *goquery.Document, id string) *goquery.Selection {
	t.Helper()
	s := byTestID(doc, id)
	if s.Length() != 1 {
		t.Fatalf("%d elements with data-testid=%q, want 1", s.Length(), id)
	}
	return s
}

// text is the element's text with white space collapsed.
func text(s *goquery.Selection) string { return strings.Join(strings.Fields(s.Text()), " ") }

var saved = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

func ptr(v float64) *float64 { return &v }

func failingTokenBucket() report.Exercise {
	return report.Exercise{
		ID: "tokenbucket", Week: 1, Title: "Token bucket", Status: report.Failed, Score: 20, MaxScore: 35,
		Checks: []report.Check{
			{ID: "tokenbucket/capacity", Title: "Starts full", Kind: report.Property, Pitfall: "capacity", Status: report.Passed, Score: 5, MaxScore: 5},
			{
				ID: "tokenbucket/fractional-tokens", Title: "Keeps fractional tokens", Kind: report.Property,
				Pitfall: "fractional-tokens", Status: report.Failed, MaxScore: 5,
				Message: "the fraction was dropped", Hint: "keep units",
				Counterexample: &report.Counterexample{
					Setup: "New(capacity=1, ratePerSec=1000, nowNs=0)",
					Steps: []report.Step{
						{Call: "TryAcquire(nowNs=0, n=1)", Got: "true", Want: "true"},
						{Call: "Available(nowNs=1200000)", Got: "0", Want: "1"},
					},
				},
			},
			{
				ID: "tokenbucket/budget", Title: "Fast", Kind: report.Benchmark, Pitfall: "budget", Status: report.Failed, MaxScore: 5,
				NsPerOp: ptr(52.3), AllocsPerOp: ptr(1), BudgetNs: ptr(40), RefNsPerOp: ptr(11.8),
			},
		},
	}
}

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

// The lesson pages show what the course declares: the visualizations it
// mounts, where its table of contents points, the exercises it introduces.
func TestLessonPages(t *testing.T) {
	for _, w := range course.Weeks() {
		t.Run(w.Lesson.Slug, func(t *testing.T) {
			doc := render(t, LessonPage(w, Assets{}))
			if got := text(one(t, doc, "lesson-title")); got != w.Lesson.Title {
				t.Errorf("lesson-title = %q, want %q", got, w.Lesson.Title)
			}
			if n := doc.Find(`div[data-viz]`).Length(); n != len(w.Lesson.Mounts) {
				t.Errorf("%d visualization mount points, want the %d declared", n, len(w.Lesson.Mounts))
			}
			for _, m := range w.Lesson.Mounts {
				mount := one(t, doc, "viz-"+m.ID)
				if v, _ := mount.Attr("data-viz"); v != m.Viz {
					t.Errorf("mount %s: data-viz = %q, want %q", m.ID, v, m.Viz)
				}
				if p, ok := mount.Attr("data-preset"); p != m.Preset || !ok {
					t.Errorf("mount %s: data-preset = %q, want %q", m.ID, p, m.Preset)
				}
				if got := text(mount.Find(`[data-testid="viz-missing"]`)); got != "visualization not built: run make run" {
					t.Errorf("without lab.wasm mount %s says %q", m.ID, got)
				}
			}
			// The table of contents is the declared one, each entry points
			// at a heading on the page, and every section is in it.
			var toc []string
			doc.Find(`nav.toc a`).Each(func(_ int, a *goquery.Selection) {
				href, _ := a.Attr("href")
				toc = append(toc, strings.TrimPrefix(href, "#")+" "+text(a))
				if doc.Find(href).Length() != 1 {
					t.Errorf("contents link %s has no target", href)
				}
			})
			var declared []string
			for _, s := range w.Lesson.Contents {
				declared = append(declared, s.ID+" "+s.Title)
			}
			if !slices.Equal(toc, declared) {
				t.Errorf("contents = %q, want the declared %q", toc, declared)
			}
			doc.Find(`[data-testid="lesson-body"] h2[id]`).Each(func(_ int, h *goquery.Selection) {
				if id := h.AttrOr("id", ""); !slices.ContainsFunc(w.Lesson.Contents, func(s course.Section) bool { return s.ID == id }) {
					t.Errorf("section %q (%s) is not in the lesson's contents", id, text(h))
				}
			})
			for _, e := range w.Exercises {
				link := one(t, doc, "lesson-exercise-"+e.ID).Find("a")
				if href, _ := link.Attr("href"); href != "/exercises/"+e.ID {
					t.Errorf("exercise %s linked as %q", e.ID, href)
				}
			}
		})
	}
}

// Prose that places a mount its lesson does not declare does not render:
// the page's assets follow from the declaration only.
func TestUndeclaredMountFailsToRender(t *testing.T) {
	w := course.Weeks()[0]
	w.Lesson.Mounts = nil
	var buf bytes.Buffer
	err := LessonPage(w, Assets{}).Render(context.Background(), &buf)
	if err == nil || !strings.Contains(err.Error(), "declares no visualization mount") {
		t.Errorf("rendering %s without its mounts: err = %v, want one naming the undeclared mount", w.Lesson.Slug, err)
	}
}

// assetsWithout is every optional asset but the ones named.
func assetsWithout(missing ...string) Assets {
	return FindAssets(func(name string) bool { return !slices.Contains(missing, name) })
}

func TestLessonLoadsVisualizationOnlyWhenBuilt(t *testing.T) {
	w := course.Weeks()[0]
	doc := render(t, LessonPage(w, assetsWithout()))
	var srcs []string
	doc.Find("script[src]").Each(func(_ int, s *goquery.Selection) { srcs = append(srcs, s.AttrOr("src", "")) })
	if strings.Join(srcs, " ") != "/static/viz/early.js /static/wasm_exec.js /static/viz/common.js /static/viz/limiters.js" {
		t.Errorf("scripts = %q, want viz/early.js, wasm_exec.js, viz/common.js then viz/limiters.js", srcs)
	}
	if doc.Find(`link[href="/static/viz/limiters.css"]`).Length() != 1 {
		t.Error("the visualization's stylesheet is not linked")
	}
	if byTestID(doc, "viz-missing").Length() != 0 {
		t.Error("says the visualization is not built when it is")
	}
	if doc.Find(`[data-viz="limiters"] [data-viz-fallback]`).Length() != 1 {
		t.Error("no fallback line inside the mount point for the script to replace")
	}

	doc = render(t, LessonPage(w, assetsWithout("lab.wasm", weekbuild.Name(w.Number))))
	if doc.Find("script").Length() != 0 || byTestID(doc, "viz-missing").Length() != 1 {
		t.Error("without lab.wasm and its week's build the page still loads the visualization, or does not say it is missing")
	}
}

// Each lesson's visualizations draw the reference from its week's build
// and run Yours from its week's Yours build, each from lab.wasm on a
// server that has no such build (class mode runs Yours from the learner's
// own build: see the class pages' tests).
func TestLessonDrawsFromItsWeeksBuilds(t *testing.T) {
	for _, w := range course.Weeks() {
		week, yours, lab := weekbuild.Name(w.Number), weekbuild.YoursName(w.Number), "lab.wasm"
		for _, c := range []struct {
			a           Assets
			wasm, yours string
		}{
			{assetsWithout(), week, yours},
			{assetsWithout(lab), week, yours},
			{assetsWithout(week), lab, yours},
			{assetsWithout(yours), week, lab},
		} {
			doc := render(t, LessonPage(w, c.a))
			mounts := doc.Find("[data-viz]")
			if mounts.Length() == 0 {
				t.Fatalf("%s: no visualization mounted", w.Lesson.Slug)
			}
			mounts.Each(func(_ int, m *goquery.Selection) {
				got := []string{m.AttrOr("data-wasm", ""), m.AttrOr("data-yours-wasm", "")}
				if want := []string{"/static/" + c.wasm, "/static/" + c.yours}; !slices.Equal(got, want) {
					t.Errorf("%s: %s's data-wasm and data-yours-wasm = %q, want %q", w.Lesson.Slug, m.AttrOr("data-viz", ""), got, want)
				}
			})
			// The head starts compiling the reference's build
			// (viz/early.js): any other would be fetched for nothing, and
			// the mounts' fetched again.
			early := doc.Find(`head script[src="/static/viz/early.js"]`)
			if got := early.AttrOr("data-wasm", ""); early.Length() != 1 || got != "/static/"+c.wasm || early.AttrOr("async", "no") == "no" {
				t.Errorf("%s: %d viz/early.js in the head, data-wasm %q, want one, async, with /static/%s", w.Lesson.Slug, early.Length(), got, c.wasm)
			}
		}
	}
}

// The week 4 lesson loads its own two visualizations, and the limiters'
// only on the lessons that show them.
func TestWeek4LoadsItsVisualizations(t *testing.T) {
	var week4 course.Week
	for _, w := range course.Weeks() {
		if w.Lesson.Slug == "week-4" {
			week4 = w
		}
	}
	if week4.Number != 4 {
		t.Fatal("the course has no week-4 lesson")
	}
	doc := render(t, LessonPage(week4, assetsWithout()))
	var srcs, hrefs []string
	doc.Find("script[src]").Each(func(_ int, s *goquery.Selection) { srcs = append(srcs, s.AttrOr("src", "")) })
	doc.Find(`link[rel="stylesheet"][href^="/static/viz/"]`).Each(func(_ int, s *goquery.Selection) { hrefs = append(hrefs, s.AttrOr("href", "")) })
	if got := strings.Join(srcs, " "); got != "/static/viz/early.js /static/wasm_exec.js /static/viz/common.js /static/viz/governor.js /static/viz/gradient2.js" {
		t.Errorf("scripts = %q, want early.js, wasm_exec.js, common.js, governor.js and gradient2.js", got)
	}
	if got := strings.Join(hrefs, " "); got != "/static/viz/governor.css /static/viz/gradient2.css" {
		t.Errorf("visualization stylesheets = %q, want governor.css and gradient2.css", got)
	}
	for _, id := range []string{"viz-governor", "viz-gradient2"} {
		if one(t, doc, id).Find(`[data-viz-fallback]`).Length() != 1 || byTestID(doc, "viz-missing").Length() != 0 {
			t.Errorf("%s: want a loading line for the script to replace, and no missing notice", id)
		}
	}
	// Without the governor's script its mount says so; the other still runs.
	doc = render(t, LessonPage(week4, assetsWithout("viz/governor.js")))
	if byTestID(doc, "viz-governor").Find(`[data-testid="viz-missing"]`).Length() != 1 || doc.Find(`script[src="/static/viz/governor.js"]`).Length() != 0 {
		t.Error("without governor.js the page still loads it, or its mount does not say it is missing")
	}
	if doc.Find(`script[src="/static/viz/gradient2.js"]`).Length() != 1 {
		t.Error("without governor.js the page no longer loads gradient2.js")
	}
	// Every contents entry has its section, and the code sketches render.
	doc.Find(`nav.toc a`).Each(func(_ int, a *goquery.Selection) {
		if href, _ := a.Attr("href"); doc.Find(href).Length() != 1 {
			t.Errorf("contents link %s has no target", href)
		}
	})
	if n := doc.Find(`[data-testid="lesson-body"] pre code`).Length(); n != 3 {
		t.Errorf("%d code sketches in the week 4 lesson, want 3", n)
	}
}

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

// Every link into a lesson, from a lesson or from an exercise's task,
// points at a lesson of the course and, with a fragment, at a heading on it.
func TestLinksIntoLessonsHaveTargets(t *testing.T) {
	lessons := map[string]*goquery.Document{}
	for _, w := range course.Weeks() {
		lessons["/lessons/"+w.Lesson.Slug] = render(t, LessonPage(w, Assets{}))
	}
	check := func(from string, doc *goquery.Document) {
		doc.Find(`main a[href^="/lessons/"]`).Each(func(_ int, a *goquery.Selection) {
			href := a.AttrOr("href", "")
			path, frag, _ := strings.Cut(href, "#")
			target, ok := lessons[path]
			switch {
			case !ok:
				t.Errorf("%s links %s, which is no lesson", from, href)
			case frag != "" && target.Find(`[id="`+frag+`"]`).Length() != 1:
				t.Errorf("%s links %s, which has no %q on it", from, href, frag)
			}
		})
	}
	for path, doc := range lessons {
		check(path, doc)
	}
	for _, ex := range course.Exercises() {
		check("/exercises/"+ex.ID, render(t, ExercisePage(ex, nil, Assets{})))
	}
}

func TestErrorPage(t *testing.T) {
	doc := render(t, ErrorPage(404, "Page not found", `There is no lesson called "week-9".`, Assets{}))
	if got := text(one(t, doc, "error-code")); got != "404" {
		t.Errorf("error-code = %q", got)
	}
	if got := text(one(t, doc, "error-message")); got != `There is no lesson called "week-9".` {
		t.Errorf("error-message = %q", got)
	}
	if href, _ := one(t, doc, "home-link").Attr("href"); href != "/" {
		t.Errorf("home link href = %q", href)
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

// A class lesson says where the learner's build of Yours is only when its
// visualizations run (its week's build or lab.wasm there): the line is kept up to date by
// classyours.js, which loads with them; without them it would say
// "asking…" for ever.
func TestClassYoursStateOnlyWithTheVisualizations(t *testing.T) {
	w := course.Weeks()[0]
	for _, c := range []struct {
		name   string
		assets Assets
		want   bool
	}{
		{"lab.wasm built", assetsWithout().WithClassYours("/class/api/yours"), true},
		{"the week's build only", assetsWithout("lab.wasm").WithClassYours("/class/api/yours"), true},
		{"no WebAssembly", assetsWithout("lab.wasm", weekbuild.Name(w.Number)).WithClassYours("/class/api/yours"), false},
		{"not class mode", assetsWithout(), false},
	} {
		doc := render(t, LessonPage(w, c.assets))
		state := doc.Find("[data-testid=yours-state]").Length() == 1
		script := doc.Find(`script[src$="viz/classyours.js"]`).Length() == 1
		if state != c.want || script != c.want {
			t.Errorf("%s: the state line %v, classyours.js %v; want both %v", c.name, state, script, c.want)
		}
	}
}

// A class lesson asks for the learner's build of its week (what its
// visualizations run); a class exercise page, whose Replay runs every
// week's simulations, for the build of every week.
func TestClassYoursAsksForTheWeeksBuild(t *testing.T) {
	a := assetsWithout().WithClassYours("/class/api/yours")
	for _, w := range course.Weeks() {
		doc := render(t, LessonPage(w, a))
		if got, want := doc.Find("[data-yours-api]").AttrOr("data-yours-api", ""), "/class/api/yours?week="+strconv.Itoa(w.Number); got != want {
			t.Errorf("%s: data-yours-api = %q; want %q", w.Lesson.Slug, got, want)
		}
	}
	doc := render(t, ClassExercisePage(ClassExerciseView{Exercise: course.Exercises()[0], Learner: true}, a))
	if got := doc.Find("[data-yours-api]").AttrOr("data-yours-api", ""); got != "/class/api/yours" {
		t.Errorf("the class exercise page's data-yours-api = %q; want /class/api/yours, every week's build", got)
	}
}

// Every module a lesson's module scripts import, and what those import, is
// one of the page's scripts or preloaded from its head
// (link rel=modulepreload): none is fetched a round trip after the script
// that imports it.
func TestLessonPreloadsWhatItsScriptsImport(t *testing.T) {
	importRE := regexp.MustCompile(`(?m)^import [^;]*? from "(\.[^"]+)";`)
	for _, w := range course.Weeks() {
		doc := render(t, LessonPage(w, assetsWithout()))
		loaded, read := map[string]bool{}, map[string]bool{}
		var queue []string
		doc.Find(`script[type="module"][src]`).Each(func(_ int, s *goquery.Selection) {
			loaded[s.AttrOr("src", "")] = true
			queue = append(queue, s.AttrOr("src", ""))
		})
		doc.Find(`head link[rel="modulepreload"]`).Each(func(_ int, l *goquery.Selection) { loaded[l.AttrOr("href", "")] = true })
		for len(queue) > 0 {
			src := queue[0]
			queue = queue[1:]
			if read[src] {
				continue
			}
			read[src] = true
			b, err := os.ReadFile(filepath.Join("..", strings.TrimPrefix(src, "/")))
			if err != nil {
				t.Fatalf("%s: reading its script %s: %v", w.Lesson.Slug, src, err)
			}
			for _, m := range importRE.FindAllStringSubmatch(string(b), -1) {
				dep := path.Join(path.Dir(src), m[1])
				if !loaded[dep] {
					t.Errorf("%s: %s imports %s, which the page neither loads nor preloads", w.Lesson.Slug, src, dep)
					loaded[dep] = true // said once
				}
				queue = append(queue, dep)
			}
		}
	}
}
