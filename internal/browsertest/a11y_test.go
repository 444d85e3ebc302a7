package browsertest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/grader/report"
	"ratelab/lab/course"
)

// replayReports are the graded reports of lab/replay/testdata: failed
// checks whose counterexamples carry their calls as data, so that their
// exercise pages have Replay buttons.
func replayReports(t *testing.T) []*report.Report {
	t.Helper()
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "lab", "replay", "testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reports in lab/replay/testdata (%v)", err)
	}
	var rs []*report.Report
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r report.Report
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rs = append(rs, &r)
	}
	return rs
}

// waitVizReady waits until every visualization on the page has drawn its
// first frame (or says it is not built).
func waitVizReady(t *testing.T, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, vizTimeout)
	defer cancel()
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`Array.from(document.querySelectorAll("[data-viz]")).every((m) =>
		m.querySelector('[data-testid="viz-ready"]') || m.querySelector('[data-testid="viz-missing"]'))`,
		chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		t.Fatalf("waiting for the visualizations to draw: %v", err)
	}
}

// replayAll clicks every Replay button on the page and waits until every
// replay has drawn its table or its error.
func replayAll(t *testing.T, ctx context.Context) int {
	t.Helper()
	n := Eval[int](t, ctx, `(() => {
		const bs = document.querySelectorAll('.replay:not([hidden]) [data-testid="replay-button"]');
		for (const b of bs) b.click();
		return bs.length;
	})()`)
	if n == 0 {
		return 0
	}
	ctx, cancel := context.WithTimeout(ctx, vizTimeout)
	defer cancel()
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`Array.from(document.querySelectorAll('.replay:not([hidden]) [data-testid="replay"]')).every((o) =>
		o.querySelector('[data-testid="replay-result"], [data-testid="replay-error"]'))`,
		chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		t.Fatalf("waiting for %d replays: %v", n, err)
	}
	return n
}

// TestAxeEveryPage runs axe-core's WCAG 2.1 AA rules on every page of the
// lab as `labserver serve` serves it, in the light color scheme and in the
// dark, and fails listing each violation: home; every lesson, once its
// visualizations have drawn (their controls, figures and status lines are
// checked as they are while running); every exercise page, graded (with
// the Replay tables of its failed checks drawn, where the grade has them)
// or not; and the 404 page; each on a desktop and on a phone, where
// wide tables and code scroll. The class-mode pages are checked in cmd/labserver
// (TestClassAxeInBrowser). One tab visits the pages in turn.
func TestAxeEveryPage(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 5 * time.Minute})
	src := RequireAxe(t)
	requireWasm(t)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir, Reports: append([]*report.Report{SampleReport()}, replayReports(t)...)})

	type pg struct{ name, path, wait string }
	pages := []pg{{"home", "/", "course-title"}}
	for _, w := range course.Weeks() {
		pages = append(pages, pg{w.Lesson.Slug, "/lessons/" + w.Lesson.Slug, "lesson-title"})
	}
	for _, w := range course.Weeks() {
		for _, e := range w.Exercises {
			pages = append(pages, pg{"exercise-" + e.ID, "/exercises/" + e.ID, "exercise-title"})
		}
	}
	pages = append(pages, pg{"404", "/no/such/page", "error-page"})

	// Pictures of a few pages in both schemes, to look at.
	shots := map[string]bool{"desktop/week-3": true, "desktop/exercise-gateway": true, "phone/week-5": true}
	replays := 0
	for _, device := range []string{"desktop", "phone"} {
		if device == "phone" {
			Phone(t, ctx)
		}
		for _, p := range pages {
			t.Run(device+"/"+p.name, func(t *testing.T) {
				Open(t, ctx, s, p.path, p.wait)
				waitVizReady(t, ctx)
				replays += replayAll(t, ctx)
				CheckA11y(t, ctx, src, p.path+" on a "+device)
				if shots[device+"/"+p.name] {
					for _, scheme := range []string{"dark", "light"} {
						ColorScheme(t, ctx, scheme)
						ScreenshotViewport(t, ctx, scheme)
					}
				}
			})
		}
	}
	if replays == 0 {
		t.Error("no exercise page had a Replay button: the replay tables went unchecked")
	}
	t.Logf("%d pages checked on a desktop and a phone, in both color schemes, %d replay tables among them", len(pages), replays/2)
}
