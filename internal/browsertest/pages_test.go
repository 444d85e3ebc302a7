package browsertest

import (
	"net/http"
	"strings"
	"testing"

	"ratelab/grader/report"
	"ratelab/lab/course"
)

// startSeeded starts a server with the sample report saved and the built
// static assets served.
func startSeeded(t *testing.T) *Server {
	t.Helper()
	return StartServer(t, ServerOptions{StaticDir: assets.Dir, Reports: []*report.Report{SampleReport()}})
}

func TestHomeShowsWeeksExercisesAndGrades(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	errs := Console(ctx)
	s := startSeeded(t)
	Open(t, ctx, s, "/", "course-title")

	for _, w := range course.Weeks() {
		WaitTestID(t, ctx, w.Lesson.Slug)
		if got := TextOf(t, ctx, "lesson-link-"+w.Lesson.Slug); got != w.Lesson.Title {
			t.Errorf("lesson link of week %d = %q, want %q", w.Number, got, w.Lesson.Title)
		}
		for _, e := range w.Exercises {
			WaitTestID(t, ctx, "exercise-"+e.ID)
		}
	}
	grades := []struct{ id, want string }{
		{"tokenbucket", "failed · 20 / 35"},
		{"gcra", "passed · 30 / 30"},
		{"slidingwindow", "not graded yet — run make grade"},
	}
	for _, g := range grades {
		if got := TextOf(t, ctx, "grade-"+g.id); !strings.Contains(got, g.want) {
			t.Errorf("grade-%s = %q, want it to contain %q", g.id, got, g.want)
		}
	}
	Screenshot(t, ctx, "desktop")
	Phone(t, ctx)
	Open(t, ctx, s, "/", "course-title")
	if w := Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("home on a 390px phone is %dpx wide: it scrolls sideways", w)
	}
	Screenshot(t, ctx, "phone")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors on the home page: %q", e)
	}
}

// Each lesson's mount points, as the course declares them: the
// visualization (data-viz) and its preset. One tab per lesson, side by
// side, on one server.
func TestLessonsHaveTheirMountPoints(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	s := startSeeded(t)
	for _, w := range course.Weeks() {
		slug := w.Lesson.Slug
		t.Run(slug, func(t *testing.T) {
			t.Parallel()
			ctx := NewBrowser(t, BrowserOptions{})
			Open(t, ctx, s, "/lessons/"+slug, "lesson-title")
			if got := TextOf(t, ctx, "lesson-title"); got != w.Lesson.Title {
				t.Errorf("%s: lesson-title = %q, want %q", slug, got, w.Lesson.Title)
			}
			// The mounts as declared: a lesson may declare none (week 3's
			// visualizations are not built yet), and then its page has none.
			if len(w.Lesson.Mounts) == 0 {
				if n := Eval[int](t, ctx, `document.querySelectorAll('[data-viz]').length`); n != 0 {
					t.Errorf("%s declares no visualization but has %d mount points", slug, n)
				}
			}
			for _, mt := range w.Lesson.Mounts {
				m := struct{ kind, preset string }{mt.Viz, mt.Preset}
				mount := `[data-viz="` + m.kind + `"][data-preset="` + m.preset + `"]`
				if n := Eval[int](t, ctx, `document.querySelectorAll('`+mount+`').length`); n != 1 {
					t.Errorf("%s: %d mount points %s, want 1", slug, n, mount)
				}
				// Either the visualization's script is on the page, or the mount
				// point says it is not built: never neither, never both.
				scripts := Eval[bool](t, ctx, `!!document.querySelector('script[src="/static/viz/`+m.kind+`.js"]')`)
				missing := Eval[string](t, ctx, `(document.querySelector('`+mount+` [data-testid="viz-missing"]') || {}).textContent || ""`)
				if scripts == (missing != "") {
					t.Errorf("%s: %s script loaded = %v, missing notice = %q; want exactly one", slug, m.kind, scripts, missing)
				}
				if missing != "" && !strings.Contains(missing, "visualization not built: run make run") {
					t.Errorf("%s: missing notice = %q, want it to say how to build it", slug, missing)
				}
			}
			for _, e := range w.Exercises {
				WaitTestID(t, ctx, "lesson-exercise-"+e.ID)
			}
			Screenshot(t, ctx, "lesson")
		})
	}
}

func TestExerciseShowsCounterexample(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	errs := Console(ctx)
	s := startSeeded(t)
	Open(t, ctx, s, "/exercises/tokenbucket", "exercise-title")

	if got := TextOf(t, ctx, "grade-tokenbucket"); got != "failed" {
		t.Errorf("grade-tokenbucket = %q, want %q", got, "failed")
	}
	check := "check-tokenbucket/fractional-tokens"
	WaitTestID(t, ctx, check)
	in := `document.querySelector('[data-testid="` + check + `"]')`
	rows := Eval[[][]string](t, ctx, `Array.from(`+in+`.querySelectorAll('[data-testid="counterexample"] tbody tr')).map(tr => [tr.dataset.testid, ...Array.from(tr.cells).map(c => c.textContent.trim())])`)
	want := [][]string{
		{"step", "1", "TryAcquire(nowNs=0, n=1)", "true", "true"},
		{"step", "2", "Available(nowNs=600000)", "0", "0"},
		{"failing-step", "3", "Available(nowNs=1200000)", "0 (differs)", "1"},
	}
	if len(rows) != len(want) {
		t.Fatalf("counterexample rows = %q, want %q", rows, want)
	}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("counterexample row %d = %q, want %q", i+1, rows[i], want[i])
		}
	}
	if got := Eval[string](t, ctx, in+`.querySelector('[data-testid="cx-setup"]').textContent`); got != "New(capacity=1, ratePerSec=1000, nowNs=0)" {
		t.Errorf("counterexample setup = %q", got)
	}
	// The failing step stands out: its background is not the table's.
	bg := Eval[[]string](t, ctx, `[`+in+`.querySelector('[data-testid="failing-step"]'), `+in+`.querySelector('[data-testid="step"]')].map(r => getComputedStyle(r).backgroundColor)`)
	if bg[0] == bg[1] {
		t.Errorf("failing step background %s = ordinary step's: not highlighted", bg[0])
	}
	hint := Eval[string](t, ctx, in+`.querySelector('[data-testid="hint"]').textContent`)
	if !strings.Contains(hint, "billionth") {
		t.Errorf("hint = %q", hint)
	}

	bench := `document.querySelector('[data-testid="check-tokenbucket/budget"]')`
	figs := Eval[[]string](t, ctx, `['ns-per-op','budget-ns','allocs-per-op','ref-ns-per-op'].map(id => `+bench+`.querySelector('[data-testid="'+id+'"]').textContent.trim())`)
	if strings.Join(figs, "|") != "52.3 ns|40 ns|0|11.8 ns" {
		t.Errorf("benchmark figures = %q, want [52.3 ns 40 ns 0 11.8 ns]", figs)
	}
	if got := TextOf(t, ctx, "how-to-grade"); !strings.Contains(got, "go run ./cmd/labserver grade --exercise tokenbucket") {
		t.Errorf("how-to-grade = %q, want the grade command", got)
	}
	Screenshot(t, ctx, "desktop")
	Phone(t, ctx)
	Open(t, ctx, s, "/exercises/tokenbucket", "exercise-title")
	if w := Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("exercise page on a 390px phone is %dpx wide: it scrolls sideways", w)
	}
	Screenshot(t, ctx, "phone")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors on the exercise page: %q", e)
	}
}

func TestExerciseWithoutReport(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	s := startSeeded(t)
	Open(t, ctx, s, "/exercises/slidingwindow", "no-report")
	if got := TextOf(t, ctx, "no-report"); !strings.Contains(got, "make grade") {
		t.Errorf("no-report = %q, want it to say how to grade", got)
	}
	if n := Eval[int](t, ctx, `document.querySelectorAll('[data-testid="counterexample"]').length`); n != 0 {
		t.Errorf("%d counterexamples on an ungraded exercise", n)
	}
	Screenshot(t, ctx, "desktop")
}

func TestNotFoundPage(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	s := startSeeded(t)
	for _, path := range []string{"/lessons/week-9", "/exercises/leakybucket", "/no/such/page"} {
		resp, err := http.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, resp.StatusCode)
		}
		Open(t, ctx, s, path, "error-page")
		if got := TextOf(t, ctx, "error-code"); got != "404" {
			t.Errorf("%s: error-code = %q, want 404", path, got)
		}
		if got := Eval[string](t, ctx, `document.querySelector('[data-testid="home-link"]').getAttribute('href')`); got != "/" {
			t.Errorf("%s: home link = %q, want /", path, got)
		}
	}
	Screenshot(t, ctx, "desktop")
	// The link home works.
	ClickTestID(t, ctx, "home-link")
	WaitTestID(t, ctx, "course-title")
}
