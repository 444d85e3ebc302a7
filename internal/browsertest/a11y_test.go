package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
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

// runVisualizations sets every visualization on the page to its top speed
// and waits until each has run 3 s of its time (8 windows for the
// governor), or finished or stopped: their figures, logs and tables have
// filled, their hot and cold marks are set.
func runVisualizations(t *testing.T, ctx context.Context) {
	t.Helper()
	Eval[bool](t, ctx, `(() => {
		for (const s of document.querySelectorAll('[data-viz] select[data-testid="speed"]')) {
			s.value = s.options[s.options.length - 1].value;
			s.dispatchEvent(new Event("change", {bubbles: true}));
		}
		return true;
	})()`)
	waitJS(t, ctx, `Array.from(document.querySelectorAll("[data-viz-ready]")).every((m) => {
		const c = m.querySelector('[data-testid="clock"]'), w = m.querySelector('[data-testid="window"]');
		const dot = (m.querySelector('[data-testid="viz-ready"]') || {}).textContent || "";
		return /done|stopped/.test(dot) || (c ? parseFloat(c.textContent.replace(/^t = /, "")) >= 3 : w ? +w.textContent >= 8 : true);
	})`, "every visualization to run 3 s")
}

// switchToYours sets every visualization on the page to run Yours (the
// code in exercises/, as TestMain built it: the stubs, until a learner
// writes them) and waits until each says so: a stub stops its run, with a
// status line and an error saying why, and panels marked stopped.
func switchToYours(t *testing.T, ctx context.Context) {
	t.Helper()
	Eval[bool](t, ctx, `(() => {
		for (const s of document.querySelectorAll('[data-viz] select[data-testid="impl"]')) {
			s.value = "yours";
			s.dispatchEvent(new Event("change", {bubbles: true}));
		}
		return true;
	})()`)
	waitJS(t, ctx, `Array.from(document.querySelectorAll("[data-viz-ready]")).every((m) =>
		/yours/i.test((m.querySelector('[data-testid="impl-status"]') || {}).textContent || ""))`, "every visualization to run Yours")
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
// visualizations have drawn, again after they ran a while (figures, logs
// and tables filled) and again on Yours (the stubs stop their runs: error
// lines, stopped panels); every exercise page, graded (with
// the Replay tables of its failed checks drawn, where the grade has them)
// or not; and the 404 page; each on a desktop and on a phone, where
// wide tables and code scroll. The class-mode pages are checked in cmd/labserver
// (TestClassAxeInBrowser). One tab visits the pages in turn.
func TestAxeEveryPage(t *testing.T) {
	t.Parallel()
	// One tab visits 34 pages: its deadline is a safety net for a browser
	// that stops answering, wide enough for a machine running the whole
	// suite beside it (5 minutes was not, once).
	ctx := NewBrowser(t, BrowserOptions{Timeout: 12 * time.Minute})
	src := RequireAxe(t)
	requireWasm(t)
	// Files: the exercise pages carry the editor, as under make run.
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir, Reports: append([]*report.Report{SampleReport()}, replayReports(t)...), Files: CopyExercises(t)})

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

	// Pictures of a few pages in both schemes, to look at, scrolled to what
	// changed: a stopped panel, a replay table, a scrolling log.
	shots := map[string]string{
		"desktop/week-3":           `[data-testid="viz-hierarchy-leak"]`,
		"desktop/exercise-gateway": `[data-testid="replay-result"]`,
		"phone/week-4":             `[data-testid="viz-governor"]`,
		"desktop/exercise-gcra":    `[data-testid="your-code"]`,
		"phone/exercise-gcra":      `[data-testid="your-code"]`,
	}
	replays := 0
	for _, device := range []string{"desktop", "phone"} {
		if device == "phone" {
			Phone(t, ctx)
		}
		for _, p := range pages {
			t.Run(device+"/"+p.name, func(t *testing.T) {
				Open(t, ctx, s, p.path, p.wait)
				waitVizReady(t, ctx)
				waitEditorReady(t, ctx)
				replays += replayAll(t, ctx)
				CheckA11y(t, ctx, src, p.path+" on a "+device)
				if Eval[int](t, ctx, `document.querySelectorAll("[data-viz-ready]").length`) > 0 {
					runVisualizations(t, ctx)
					CheckA11y(t, ctx, src, p.path+" on a "+device+", its visualizations run a while")
					if !assets.NoYours {
						switchToYours(t, ctx)
						CheckA11y(t, ctx, src, p.path+" on a "+device+", its visualizations on Yours")
					}
				}
				if sel := shots[device+"/"+p.name]; sel != "" {
					Eval[bool](t, ctx, `(document.querySelector(`+strconv.Quote(sel)+`).scrollIntoView({block: "start"}), true)`)
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

// Each visualization's chart (a canvas, role=img) has a text alternative
// that says what it shows now, from the figures the page shows beside it:
// for one chart of every visualization, run it until something happened,
// pause it, and its aria-label must come to hold the chart's name and the
// figures the page shows (the clock, a count), and differ from the label it
// had at its first frame. Meanwhile the label changes at most once a second
// (common.js's describe), so that a screen reader is not flooded. Every
// change of a label is recorded from the document's start (labelLog), so
// the first frame's label is known however far the run got before the test
// first looks.
func TestVizCanvasesDescribeWhatTheyShow(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	requireWasm(t)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	cases := []struct {
		slug, mount, canvas string
		pause               string   // the button that stops time
		until               string   // a JavaScript condition on fig(testid), the figure's text: something happened
		figures             []string // the figures the label must hold once paused
	}{
		{"week-1", "viz-naive-refill", `[data-lane="gcra"] canvas`, "pause", `+fig("accepted-gcra") > 0 && +fig("refused-gcra") > 0`, []string{"clock", "accepted-gcra", "refused-gcra"}},
		{"week-2", "viz-edge-attack", `[data-lane="sliding"] canvas`, "pause", `+fig("accepted-sliding") > 0`, []string{"clock", "accepted-sliding", "max-in-window-sliding"}},
		{"week-3", "viz-hierarchy-leak", `canvas`, "pause", `+fig("leaky-lost").replace(/,/g, "") > 0`, []string{"clock", "leaky-lost", "leaky-own", "tree-lost"}},
		{"week-3", "viz-contention", `[data-lane="drr"] canvas`, "pause", `parseFloat(fig("clock").slice(4)) >= 1`, []string{"clock", "gap-drr", "ooo-drr"}},
		{"week-3", "viz-policy", `[data-testid="gate-chart"]`, "pause", `parseFloat(fig("clock").slice(4)) >= 1`, []string{"clock", "gate-orders", "gate-cancels"}},
		{"week-4", "viz-governor", `canvas`, "pause", `+fig("window") >= 3`, []string{"window", "offer", "capacity"}},
		{"week-4", "viz-gradient2", `canvas`, "pause", `parseFloat(fig("clock").slice(4)) >= 1`, []string{"clock", "limit", "inflight"}},
		{"week-5", "viz-console", `canvas`, "hold", `parseFloat(fig("clock").slice(4)) >= 1`, []string{"clock", "status-state", "unattributed"}},
		{"week-5", "viz-breaker", `[data-testid="timeline"]`, "pause", `parseFloat(fig("clock").slice(4)) >= 1`, []string{"clock", "state", "refused"}},
	}
	for _, c := range cases {
		t.Run(c.mount, func(t *testing.T) {
			t.Parallel()
			ctx := NewBrowser(t, BrowserOptions{})
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: labelLog}); err != nil {
				t.Fatalf("injecting the label log: %v", err)
			}
			Open(t, ctx, s, "/lessons/"+c.slug, c.mount)
			onlyMount(t, ctx, c.mount)
			v := newVizPage(t, ctx, c.mount)
			v.waitReady()
			mount := `document.querySelector(` + strconv.Quote(v.mount) + `)`
			canvas := mount + `.querySelector(` + strconv.Quote(c.canvas) + `)`
			// This canvas's labels, timed, from the first frame on: the writes
			// that replace a label (its name, at the first), not the one that
			// gives the canvas its name.
			labels := `window.__labelLog.filter((e) => e[1] === ` + canvas + ` && e[2] !== null).map((e) => [e[0], e[3]])`
			got := waitJS(t, ctx, `(() => {
				const w = window.__labelLog.find((e) => e[1] === `+canvas+` && e[2] !== null);
				return w && {name: w[2], first: w[3]};
			})()`, "the chart's first label")
			name, first := got["name"], got["first"]
			if !strings.HasPrefix(first, name+": ") || Eval[string](t, ctx, canvas+`.getAttribute("role")`) != "img" {
				t.Fatalf("the chart's first label = %q, want role=img and its name %q, a colon and what it shows", first, name)
			}
			fig := `const fig = (id) => (` + mount + `.querySelector('[data-testid="' + id + '"]') || {textContent: ""}).textContent.trim().replace(/,/g, "");`
			waitJS(t, ctx, `(() => { `+fig+` return `+c.until+`; })()`, "the run to get going: "+c.until)
			Eval[bool](t, ctx, mount+`.querySelector('[data-testid="`+c.pause+`"]').click() || true`)
			var figs []string
			for _, id := range c.figures {
				figs = append(figs, strconv.Quote(id))
			}
			// Paused, the figures stay; the label catches up within a second.
			got = waitJS(t, ctx, `(() => { `+fig+`
				const label = `+canvas+`.getAttribute("aria-label") || "";
				const want = [`+strings.Join(figs, ", ")+`].map(fig);
				// Counts are grouped (1,234) in the label as on the panel.
				const plain = label.replace(/(\d),(?=\d{3})/g, "$1");
				return want.every((w) => w !== "" && plain.includes(w)) ? {label, want: want.join(" | ")} : null;
			})()`, "the label to hold the figures "+strings.Join(c.figures, ", "))
			label := got["label"]
			t.Logf("%s: %q (figures %s)", c.mount, label, got["want"])
			if !strings.HasPrefix(label, name+": ") {
				t.Errorf("label = %q, want it to begin with the chart's name %q", label, name+": ")
			}
			if label == first {
				t.Errorf("label = %q, the same as at the first frame", label)
			}
			// Each write is timed as the script makes it, and describe waits
			// DESCRIBE_MS between two: 10 ms of slack for a timer that fires
			// early and the page clock's coarse grain, none for load.
			changes := Eval[[][]any](t, ctx, labels)
			for i := 1; i < len(changes); i++ {
				if gap := changes[i][0].(float64) - changes[i-1][0].(float64); gap < 990 {
					t.Errorf("the label changed twice within %.0f ms: %q, then %q", gap, changes[i-1][1], changes[i][1])
				}
			}
		})
	}
}

// labelLog, run before a page's own scripts, records every change of an
// aria-label in the document as [time, element, old label or null, new
// label] in
// window.__labelLog, timed when the page's script sets it (not when an
// observer hears of it, which a busy page delays).
const labelLog = `(() => {
	const log = window.__labelLog = [];
	const set = Element.prototype.setAttribute;
	Element.prototype.setAttribute = function (name, value) {
		const old = this.getAttribute(name);
		if (name === "aria-label" && old !== String(value)) log.push([performance.now(), this, old, String(value)]);
		return set.call(this, name, value);
	};
})();`

// waitJS polls the expression, at most vizTimeout, until it is truthy, and
// returns its value as a map of strings (empty for a plain true).
func waitJS(t *testing.T, ctx context.Context, expr, what string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, vizTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Poll[any](expr, chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
	out := map[string]string{}
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			out[k] = fmt.Sprint(x)
		}
	}
	return out
}
