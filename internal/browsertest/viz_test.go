package browsertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"ratelab/internal/weekbuild"
	"ratelab/lab/course"
)

// The visualization tests drive web/static/viz/limiters.js on the lesson
// pages, against the lab.wasm TestMain built, and check what the course
// promises by reading the figures the page shows. Virtual time is moved
// either by the Step button (one message per click, exact) or by running
// at 30× and polling the figures until a condition holds: never by
// sleeping and asserting on wall time. Wall times (first frame, frames per
// second) are logged, not asserted.

// Lesson mounts: path and preset of each lesson's visualization.
var vizLessons = []struct{ slug, preset string }{
	{"week-1", "naive-refill"},
	{"week-2", "edge-attack"},
}

// weekWasm returns the name of the build (internal/weekbuild) the lesson
// slug draws from.
func weekWasm(t *testing.T, slug string) string {
	t.Helper()
	for _, w := range course.Weeks() {
		if w.Lesson.Slug == slug {
			return weekbuild.Name(w.Number)
		}
	}
	t.Fatalf("the course has no lesson %s", slug)
	return ""
}

// laneIDs are the visualization's lanes, in the order it draws them.
var laneIDs = []string{"fixed", "sliding", "tokenbucket", "slidinglog", "gcra"}

// vizTimeout bounds one wait for the figures. Generous: the machine may be
// slow and busy; a healthy run needs well under a second.
const vizTimeout = 60 * time.Second

// requireWasm fails the test if TestMain could not build lab.wasm. Call it
// after NewBrowser or RequireChromium (which skip without a browser:
// TestMain builds nothing then). The limiter and week 4 tests share it.
func requireWasm(t testing.TB) {
	t.Helper()
	if assets.Err != nil {
		t.Fatalf("static assets: %v", assets.Err)
	}
	if !assets.Wasm || !assets.WasmExec {
		t.Fatalf("lab.wasm was not built (Wasm=%v, WasmExec=%v): does ./wasm exist?", assets.Wasm, assets.WasmExec)
	}
}

// vizPage is one visualization mount in the page open in a tab.
type vizPage struct {
	t     *testing.T
	ctx   context.Context
	mount string // CSS selector of the mount
}

// yoursSpeed is the speed a test runs a visualization at while it runs
// Yours (a stub, a fixture or the learner's code) for more than a moment.
// Yours runs in a Web Worker whose every call must answer within 1 s of
// wall time (remote.js's watchdog, which reports an endless loop
// otherwise), and a frame asks it for its speed times the frame's longest
// advance (100 to 250 ms) of virtual time: at the top speeds seconds of a
// scenario in one call, which a busy machine can take longer than that to
// answer. At 2× a call is 5 to 15 times smaller.
const yoursSpeed = "2"

// onlyMount takes every visualization but the one whose mount has
// data-testid testid off the lesson page, so that the test's tab animates
// that one alone: each visualization draws every frame whether on screen
// or not, and a lesson's two or three together keep a core busy that the
// tests beside it need. A mount taken off the page ends its own frame loop
// and frees its run (common.js). The tests of a whole page (its mount
// points, its layout on a phone, both week 4 visualizations) keep them all.
func onlyMount(t *testing.T, ctx context.Context, testid string) {
	t.Helper()
	Eval[bool](t, ctx, `(() => {
		for (const m of document.querySelectorAll("[data-viz]")) if (m.dataset.testid !== `+strconv.Quote(testid)+`) m.remove();
		return true;
	})()`)
}

// openViz opens the lesson and waits until its visualization has drawn its
// first frame.
func openViz(t *testing.T, ctx context.Context, s *Server, slug, preset string) *vizPage {
	t.Helper()
	Open(t, ctx, s, "/lessons/"+slug, "viz-"+preset)
	v := newVizPage(t, ctx, "viz-"+preset)
	v.waitReady()
	return v
}

// newVizPage returns the mount with data-testid testid in the page open in
// ctx.
func newVizPage(t *testing.T, ctx context.Context, testid string) *vizPage {
	return &vizPage{t: t, ctx: ctx, mount: fmt.Sprintf("[data-testid=%q]", testid)}
}

// waitReady waits, at most vizTimeout, for the visualization's first
// frame; past it, the test fails with what the page shows, read while the
// test's own deadline still leaves time to read it.
func (v *vizPage) waitReady() {
	v.t.Helper()
	ctx, cancel := context.WithTimeout(v.ctx, vizTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(v.sel("viz-ready")))); err != nil {
		state := Eval[string](v.t, v.ctx, `JSON.stringify({visibility: document.visibilityState, focus: document.hasFocus(), wasm: performance.getEntriesByType("resource").filter((e) => e.name.includes(".wasm")).map((e) => [e.name, Math.round(e.duration)])})`)
		v.t.Fatalf("waiting for %s to be ready: %v\nthe page: %s\nthe figures: %s", v.mount, err, state, dumpFigures(v.figures().m))
	}
}

// sel returns the CSS selector of the element with data-testid id inside
// the mount.
func (v *vizPage) sel(id string) string {
	return fmt.Sprintf("%s [data-testid=%q]", v.mount, id)
}

// js returns a JavaScript expression for the element with data-testid id
// inside the mount.
func (v *vizPage) js(id string) string {
	return "document.querySelector(" + strconv.Quote(v.sel(id)) + ")"
}

// set sets a control (select, number input or checkbox) as a person would,
// firing its change event.
func (v *vizPage) set(id, value string) {
	v.t.Helper()
	expr := `(() => {
		const el = ` + v.js(id) + `;
		if (!el) return "no such control";
		if (el.type === "checkbox") el.checked = ` + strconv.Quote(value) + ` === "true";
		else el.value = ` + strconv.Quote(value) + `;
		if (el.type !== "checkbox" && el.value !== ` + strconv.Quote(value) + `) return "value not accepted: " + el.value;
		el.dispatchEvent(new Event("change", {bubbles: true}));
		return "";
	})()`
	if msg := Eval[string](v.t, v.ctx, expr); msg != "" {
		v.t.Fatalf("setting %s to %q: %s", id, value, msg)
	}
}

// click clicks the button id n times in a row, in one task of the page.
func (v *vizPage) click(id string, n int) {
	v.t.Helper()
	expr := `(() => { const b = ` + v.js(id) + `; for (let i = 0; i < ` + strconv.Itoa(n) + `; i++) b.click(); return true; })()`
	Eval[bool](v.t, v.ctx, expr)
}

// setPaused pauses or resumes the run with the Pause/Play button.
func (v *vizPage) setPaused(paused bool) {
	v.t.Helper()
	if Eval[string](v.t, v.ctx, v.js("pause")+`.getAttribute("aria-pressed")`) != strconv.FormatBool(paused) {
		v.click("pause", 1)
	}
}

// pauseWhen lets the run go on until the JavaScript expression cond holds
// in the page, and pauses it there. The page pauses itself: an observer in
// the page evaluates cond at every change of the mount and presses Pause
// the first time it holds, so that the run stops within a frame of cond
// (one frame's advance at most past it) however long the test's own round
// trips take on a busy machine.
func (v *vizPage) pauseWhen(what, cond string) {
	v.t.Helper()
	Eval[bool](v.t, v.ctx, `(() => {
		const root = document.querySelector(`+strconv.Quote(v.mount)+`), pause = `+v.js("pause")+`;
		const obs = new MutationObserver(() => {
			if (!(`+cond+`)) return;
			obs.disconnect();
			if (pause.getAttribute("aria-pressed") !== "true") pause.click();
		});
		obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
		if (pause.getAttribute("aria-pressed") === "true") pause.click();
		return true;
	})()`)
	paused := `(` + cond + `) && ` + v.js("pause") + `.getAttribute("aria-pressed") === "true"`
	if _, err := chromedp.Run(v.ctx, chromedp.Poll[bool](paused, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout))); err != nil {
		v.t.Fatalf("waiting for %s (%s), paused there: %v\nthe page shows: %s", what, cond, err, dumpFigures(Eval[map[string]string](v.t, v.ctx, v.figuresExpr("true"))))
	}
}

// restartPaused pauses the run and starts it again from virtual time 0,
// so that Step decides the first message.
func (v *vizPage) restartPaused() {
	v.t.Helper()
	v.setPaused(true)
	v.click("restart", 1)
	v.waitFor("a restarted run at t = 0", `n("messages") === 0 && f.clock === "t = 0.000 s"`)
}

// figuresJS collects every data-testid inside the mount: the value of
// controls (checked for checkboxes), the trimmed text of the rest. It
// binds f (the map) and n (a figure as a number) for a condition.
const figuresJS = `
	const root = document.querySelector(MOUNT);
	if (!root) return null;
	const f = {};
	for (const e of root.querySelectorAll("[data-testid]")) {
		const id = e.dataset.testid;
		if (e.type === "checkbox") f[id] = String(e.checked);
		else if (e.tagName === "INPUT" || e.tagName === "SELECT") f[id] = e.value;
		else f[id] = e.textContent.replace(/\s+/g, " ").trim();
	}
	const n = id => (f[id] === undefined || f[id] === "" ? NaN : Number(f[id].replace(/,/g, ""))); // counts are written 220,491
`

func (v *vizPage) figuresExpr(cond string) string {
	return "(() => {" + strings.Replace(figuresJS, "MOUNT", strconv.Quote(v.mount), 1) + "return (" + cond + ") ? f : null; })()"
}

// figures returns what the visualization shows now, all from one frame.
func (v *vizPage) figures() figures {
	v.t.Helper()
	return figures{v.t, Eval[map[string]string](v.t, v.ctx, v.figuresExpr("true"))}
}

// waitFor polls the figures until the JavaScript condition cond (over f
// and n, see figuresJS) holds, and returns them as they were then. A run
// of Yours that the page's watchdog stops meanwhile is restarted (see
// pollFigures).
func (v *vizPage) waitFor(what, cond string) figures {
	v.t.Helper()
	dump := func() string { return dumpFigures(Eval[map[string]string](v.t, v.ctx, v.figuresExpr("true"))) }
	return figures{v.t, pollFigures(v.t, v.ctx, v.mount, what, cond, v.figuresExpr, dump, watchdogRestarts)}
}

// waitUnaided is waitFor without restarting a run that the page's
// watchdog stops: for a test of how the page itself goes on after it
// reported a hang.
func (v *vizPage) waitUnaided(what, cond string) figures {
	v.t.Helper()
	dump := func() string { return dumpFigures(Eval[map[string]string](v.t, v.ctx, v.figuresExpr("true"))) }
	return figures{v.t, pollFigures(v.t, v.ctx, v.mount, what, cond, v.figuresExpr, dump, 0)}
}

// watchdogReport matches, as a JavaScript regular expression, the page's
// report of a call of Yours that did not answer within remote.js's
// deadline of 1 s of wall time (in a visualization's viz-error, or a
// replay's replay-error).
const watchdogReport = `/did not return (from \S+ )?within 1 s/`

// watchdogRestarts is how many times a test restarts a run of Yours that
// the page's watchdog stopped, before it fails.
const watchdogRestarts = 2

// stoppedByWatchdog is the key pollFigures adds to the figures when the
// page's watchdog stopped the run before the condition held.
const stoppedByWatchdog = "(stopped by the watchdog)"

// pollFigures polls the figures of the visualization mounted at mount
// (expr(c) returns them when the JavaScript condition c holds, else null)
// until cond holds, and returns them then; dump says what the page shows
// when the wait fails.
//
// Yours runs in a Web Worker whose every call must answer within 1 s of
// wall time, or the page stops the run and reports an endless loop. The
// Yours a test runs always answers (a stub, a fixture or a correct build;
// the endless one's tests wait for the report itself, and cond is then
// met by it), but on a busy machine a call can take longer than 1 s of
// wall time. Such a run is restarted, with a line in the log, up to
// maxRestarts times: a Yours that really hangs is reported every time and
// fails the test. With maxRestarts 0 it waits for cond alone.
func pollFigures(t testing.TB, ctx context.Context, mount, what, cond string, expr func(string) string, dump func() string, maxRestarts int) map[string]string {
	t.Helper()
	watched := cond
	if maxRestarts > 0 {
		watched = `(` + cond + `) || (` + watchdogReport + `.test(f["viz-error"] || "") && (f[` + strconv.Quote(stoppedByWatchdog) + `] = "1"))`
	}
	for restarts := 0; ; restarts++ {
		m, err := chromedp.Run(ctx, chromedp.Poll[map[string]string](expr(watched),
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout)))
		if err != nil {
			t.Fatalf("waiting for %s (%s): %v\nthe page shows: %s", what, cond, err, dump())
		}
		if m[stoppedByWatchdog] == "" {
			return m
		}
		if restarts == maxRestarts {
			t.Fatalf("waiting for %s (%s): the page's watchdog stopped Yours %d times, last %q", what, cond, restarts+1, m["viz-error"])
		}
		t.Logf("waiting for %s: the page's watchdog stopped Yours (%q), a call having taken over 1 s of wall time: restarting the run", what, m["viz-error"])
		Eval[bool](t, ctx, `(document.querySelector(`+strconv.Quote(mount+` [data-testid="restart"]`)+`).click(), true)`)
		if _, err := chromedp.Run(ctx, chromedp.Poll[map[string]string](expr(`f["viz-error"] === ""`),
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout))); err != nil {
			t.Fatalf("waiting for the restarted run: %v\nthe page shows: %s", err, dump())
		}
	}
}

func dumpFigures(m map[string]string) string {
	b, _ := json.MarshalIndent(m, "", "  ")
	return string(b)
}

// figures is one snapshot of the visualization's data-testids.
type figures struct {
	t testing.TB
	m map[string]string
}

func (f figures) text(id string) string {
	f.t.Helper()
	s, ok := f.m[id]
	if !ok {
		f.t.Fatalf("no [data-testid=%q] in the visualization", id)
	}
	return s
}

// int returns a figure that must be an integer, plain or in groups of
// three (220,491).
func (f figures) int(id string) int64 {
	f.t.Helper()
	s := f.text(id)
	n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil {
		f.t.Fatalf("[data-testid=%q] = %q, want a plain integer", id, s)
	}
	return n
}

var lastMessageRE = regexp.MustCompile(`^last message at (\d+)\.(\d{6}) s:`)

// lastMessageNs returns the time of the latest message decided, from the
// last-message line (microseconds), in nanoseconds.
func (f figures) lastMessageNs() int64 {
	f.t.Helper()
	s := f.text("last-message")
	m := lastMessageRE.FindStringSubmatch(s)
	if m == nil {
		f.t.Fatalf("last-message = %q, want \"last message at <s.µµµµµµ> s: ...\"", s)
	}
	sec, _ := strconv.ParseInt(m[1], 10, 64)
	us, _ := strconv.ParseInt(m[2], 10, 64)
	return sec*1e9 + us*1e3
}

var creditRE = regexp.MustCompile(`^\d+(\.\d{1,9})?$`)

// credit returns the lost credit in billionths of a token, checking that
// the page writes it as an exact decimal.
func (f figures) credit() int64 {
	f.t.Helper()
	s := f.text("lost-credit")
	if !creditRE.MatchString(s) || (strings.Contains(s, ".") && strings.HasSuffix(s, "0")) {
		f.t.Fatalf("lost-credit = %q, want an exact decimal such as 999.9", s)
	}
	whole, frac, _ := strings.Cut(s, ".")
	w, _ := strconv.ParseInt(whole, 10, 64)
	u, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
	return w*1e9 + u
}

// limits are N, W, b and r as the controls set them, computed the way
// lab/sim.Config does.
type limits struct {
	n, windowNs, burst, rate int64
}

func (f figures) limits() limits {
	f.t.Helper()
	n := f.int("limit")
	wms, err := strconv.ParseFloat(f.text("window"), 64)
	if err != nil {
		f.t.Fatalf("window = %q, want milliseconds", f.text("window"))
	}
	l := limits{n: n, windowNs: int64(math.Round(wms * 1e6)), burst: n}
	if b := f.text("burst"); b != "" { // empty means b = N (placeholder "= N")
		l.burst = f.int("burst")
	}
	l.rate = n * 1e9 / l.windowNs
	return l
}

// bucketBound returns b + r·T rounded down: the most an exact token bucket
// (or GCRA) may accept in a closed interval of length T.
func (l limits) bucketBound(tNs int64) int64 {
	return l.burst + l.rate*tNs/1e9
}

// The week 2 promise: in the edge attack the fixed window lets through
// about 2N within 100 ms of a boundary, while the sliding window holds N
// and the token bucket b + r·T.
func TestVizEdgeAttack(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	v := openViz(t, ctx, s, "week-2", "edge-attack")

	f := v.figures()
	for id, want := range map[string]string{"traffic": "edge", "impl": "reference", "refill": "exact", "impl-status": "Reference"} {
		if got := f.text(id); got != want {
			t.Errorf("week 2 preset: %s = %q, want %q", id, got, want)
		}
	}
	lim := f.limits()
	t.Logf("settings: N = %d, W = %d ms, b = %d, r = %d/s", lim.n, lim.windowNs/1e6, lim.burst, lim.rate)

	// One attack, message by message: Step decides exactly one message, so
	// after 2N steps the figures count exactly the first attack, and
	// last-message dates its first and last message.
	v.restartPaused()
	v.click("step", 1)
	first := v.waitFor("the first message", `n("messages") === 1`).lastMessageNs()
	v.click("step", int(2*lim.n-1))
	f = v.waitFor("the first attack, 2N messages", `n("messages") === `+strconv.FormatInt(2*lim.n, 10))
	last := f.lastMessageNs()
	span := last - first
	t.Logf("first attack: %d messages from %.6f s to %.6f s (%.1f ms); accepted: fixed %d, sliding %d, token bucket %d, sliding log %d, GCRA %d",
		2*lim.n, float64(first)/1e9, float64(last)/1e9, float64(span)/1e6,
		f.int("accepted-fixed"), f.int("accepted-sliding"), f.int("accepted-tokenbucket"), f.int("accepted-slidinglog"), f.int("accepted-gcra"))
	if span >= 100e6 {
		t.Fatalf("the first attack spans %.3f ms, want it within 100 ms of the boundary", float64(span)/1e6)
	}
	if got, least := f.int("accepted-fixed"), (19*lim.n+9)/10; got < least {
		t.Errorf("fixed window accepted %d in %.1f ms around the boundary, want at least 1.9·N = %d", got, float64(span)/1e6, least)
	}
	for _, id := range []string{"sliding", "slidinglog"} {
		if got := f.int("accepted-" + id); got > lim.n {
			t.Errorf("%s accepted %d in %.1f ms, want at most N = %d", id, got, float64(span)/1e6, lim.n)
		}
	}
	for _, id := range []string{"tokenbucket", "gcra"} {
		if got, bound := f.int("accepted-"+id), lim.bucketBound(span); got > bound {
			t.Errorf("%s accepted %d in T = %.1f ms, want at most b + r·T = %d", id, got, float64(span)/1e6, bound)
		}
	}
	for _, id := range laneIDs {
		if got, acc := f.int("max-in-window-"+id), f.int("accepted-"+id); got != acc {
			t.Errorf("after one attack max-in-window-%s = %d, want all %d accepted (they lie within W)", id, got, acc)
		}
	}

	// Running at 30×: the page's own figures over any W after three attacks.
	// Attacks are 2W apart, so each interval of length W meets one of them.
	v.set("speed", "30")
	v.setPaused(false)
	f = v.waitFor("three attacks", `n("messages") >= `+strconv.FormatInt(6*lim.n, 10))
	fixed := f.int("max-in-window-fixed")
	if fixed < (19*lim.n+9)/10 {
		t.Errorf("max-in-window-fixed = %d, want at least 1.9·N = %d", fixed, (19*lim.n+9)/10)
	}
	if got := f.int("max-in-window-sliding"); got > lim.n {
		t.Errorf("max-in-window-sliding = %d, want at most N = %d", got, lim.n)
	}
	if got, bound := f.int("max-in-window-tokenbucket"), lim.bucketBound(lim.windowNs); got > bound {
		t.Errorf("max-in-window-tokenbucket = %d, want at most b + r·W = %d", got, bound)
	}
	if key := f.text("key-figure"); !strings.Contains(key, fmt.Sprintf("Fixed window %d (%.2f N)", fixed, float64(fixed)/float64(lim.n))) {
		t.Errorf("key-figure = %q, want it to give the fixed window's %d", key, fixed)
	}
	// The page flags the fixed window, and only it, as over its promise.
	for _, id := range []string{"fixed", "sliding", "tokenbucket"} {
		flagged := Eval[bool](t, ctx, v.js("max-in-window-"+id)+`.classList.contains("rlv-over")`)
		if flagged != (id == "fixed") {
			t.Errorf("max-in-window-%s flagged over its promise = %v, want %v", id, flagged, id == "fixed")
		}
	}
	t.Logf("after %s messages at %s: max in any W: fixed %d, sliding %d, token bucket %d (b + r·W = %d)",
		f.text("messages"), f.text("clock"), fixed, f.int("max-in-window-sliding"), f.int("max-in-window-tokenbucket"), lim.bucketBound(lim.windowNs))
	if e := f.text("viz-error"); e != "" {
		t.Errorf("viz-error = %q", e)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// The week 1 promise: a client calling every 100 µs at 1,000 tokens/s
// starves on the naive bucket, while the exact one (the GCRA lane) grants
// about 1,000 a second; the page shows the credit rounding threw away.
func TestVizNaiveRefill(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		slug, preset string
		choose       bool // select naive-demo in the traffic menu
	}{
		{"week-1", "naive-refill", false},
		{"week-2", "edge-attack", true},
	} {
		name := c.slug
		if c.choose {
			name += "-select-naive-demo"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := NewBrowser(t, BrowserOptions{})
			requireWasm(t)
			errs := Console(ctx)
			s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
			v := openViz(t, ctx, s, c.slug, c.preset)
			if c.choose {
				v.set("traffic", "naive-demo")
			}
			f := v.waitFor("the naive demo's settings", `f.traffic === "naive-demo" && f.refill === "naive"`)
			want := map[string]string{"limit": "1000", "window": "1000", "burst": "10", "refill": "naive", "show-tokenbucket": "true", "show-gcra": "true"}
			for id, w := range want {
				if got := f.text(id); got != w {
					t.Errorf("naive demo: %s = %q, want %q", id, got, w)
				}
			}
			for _, id := range []string{"tokenbucket", "gcra"} {
				if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(v.sel("accepted-"+id)))); err != nil {
					t.Fatalf("the %s lane is not shown: %v", id, err)
				}
			}
			lim := f.limits()
			if lim.rate != 1000 || lim.burst != 10 {
				t.Fatalf("naive demo: r = %d/s, b = %d; want 1000/s and 10", lim.rate, lim.burst)
			}

			// Exactly one second of calls, by Step: t = 0, 100 µs, ..., 0.9999 s.
			v.restartPaused()
			v.click("step", 10000)
			f = v.waitFor("10,000 messages", `n("messages") === 10000`)
			lastNs := f.lastMessageNs()
			if lastNs != 999_900_000 {
				t.Errorf("message 10,000 at %d ns, want 999900000 (one every 100 µs from 0)", lastNs)
			}
			naive, exact := f.int("accepted-tokenbucket"), f.int("accepted-gcra")
			if naive != lim.burst {
				t.Errorf("naive bucket accepted %d of 10,000, want its burst b = %d and nothing more", naive, lim.burst)
			}
			if want := lim.bucketBound(lastNs); exact != want {
				t.Errorf("GCRA accepted %d of 10,000, want b + r·t = %d, as an exact bucket", exact, want)
			}
			// Every call after the first loses its 0.1 token: 9,999 × 0.1.
			if got := f.text("lost-credit"); got != "999.9" {
				t.Errorf("lost-credit = %q after 10,000 calls, want 999.9", got)
			}
			checkLostCredit(t, f)
			t.Logf("after one second by Step: naive %d, GCRA %d, lost credit %s", naive, exact, f.text("lost-credit"))

			// Running at 30× until about two seconds of virtual time.
			v.set("speed", "30")
			v.setPaused(false)
			f = v.waitFor("2 s of virtual time", `parseFloat(f.clock.slice(4)) >= 2`)
			naive, exact = f.int("accepted-tokenbucket"), f.int("accepted-gcra")
			if naive != lim.burst || 10*naive >= exact {
				t.Errorf("at %s: naive accepted %d, GCRA %d; want b = %d for naive, far fewer than the GCRA", f.text("clock"), naive, exact, lim.burst)
			}
			checkLostCredit(t, f)
			t.Logf("at %s: naive %d, GCRA %d, lost credit %s", f.text("clock"), naive, exact, f.text("lost-credit"))
			if e := f.text("viz-error"); e != "" {
				t.Errorf("viz-error = %q", e)
			}
			if e := errs(); len(e) > 0 {
				t.Errorf("console errors: %q", e)
			}
		})
	}
}

// checkLostCredit checks that the lost credit is positive and, to within
// one token, what the naive bucket accepted less than the exact one.
func checkLostCredit(t *testing.T, f figures) {
	t.Helper()
	lost := f.credit()
	diff := (f.int("accepted-gcra") - f.int("accepted-tokenbucket")) * 1e9
	if lost <= 0 || lost <= diff-1e9 || lost >= diff+1e9 {
		t.Errorf("lost-credit = %s, want more than 0 and within one token of exact − naive accepted = %d − %d",
			f.text("lost-credit"), f.int("accepted-gcra"), f.int("accepted-tokenbucket"))
	}
}

var stubNew = regexp.MustCompile(`func New\([^)]*\)[^{]*\{\s*panic\("[^"]*not implemented`)

// exercisesAreStubs reports whether every exercise's New still panics
// "not implemented", as in the course repository before a learner starts.
func exercisesAreStubs(t *testing.T) bool {
	t.Helper()
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range []string{"tokenbucket", "gcra", "slidingwindow"} {
		src, err := os.ReadFile(filepath.Join(root, "exercises", ex, ex+".go"))
		if err != nil || !stubNew.Match(src) {
			return false
		}
	}
	return true
}

// buildNoYours builds lab.wasm and each week's Yours build with -tags
// noyours, as `make wasm` does when exercises/ does not compile, into a
// new static folder.
func buildNoYours(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	js, err := os.ReadFile(filepath.Join(assets.Dir, "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, week := range weekbuild.YoursWeeks() {
		if _, err := weekbuild.BuildNoYours(t.Context(), root, dir, week); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The Code switch: "Yours" runs the learner's exercises/ (stubs here) and
// says plainly why its lanes stopped; "Reference" works again after it.
func TestVizImplSwitch(t *testing.T) {
	t.Parallel()
	stubs := exercisesAreStubs(t)
	type build struct {
		name    string
		noYours bool // the Yours builds built with -tags noyours
	}
	// TestMain's lab.wasm, and, unless that already is one, a noyours build.
	builds := []build{{"built", assets.NoYours}}
	if !assets.NoYours {
		builds = append(builds, build{"noyours", true})
	}
	for _, b := range builds {
		for _, l := range vizLessons {
			t.Run(b.name+"/"+l.slug, func(t *testing.T) {
				t.Parallel()
				RequireChromium(t)
				requireWasm(t)
				dir := assets.Dir
				if b.name == "noyours" {
					dir = buildNoYours(t)
				}
				s := StartServer(t, ServerOptions{StaticDir: dir})
				ctx := NewBrowser(t, BrowserOptions{}) // after the build: its timeout bounds the browser's use alone
				errs := Console(ctx)
				v := openViz(t, ctx, s, l.slug, l.preset)
				v.waitFor("Reference", `f["impl-status"] === "Reference"`)
				v.set("speed", "30")
				v.set("impl", "yours")
				f := v.waitFor("Yours, running", `f["impl-status"].startsWith("Yours") && n("messages") >= 1000`)
				// Yours runs the exercises' buckets, which refill exactly:
				// the refill follows the Code switch. (With naive refill the
				// token bucket lane would be the lab's own.)
				if got := f.text("refill"); got != "exact" {
					t.Errorf("with Code = Yours, Refill = %q; want exact", got)
				}
				implLanes := []string{"sliding", "tokenbucket", "gcra"}
				labLanes := []string{"fixed", "slidinglog"}
				status := f.text("impl-status")
				t.Logf("impl-status with Yours: %q", status)
				var reason string
				switch {
				case b.noYours:
					reason = "your code does not build"
				case stubs:
					reason = "not implemented yet"
				}
				if reason == "" {
					t.Logf("exercises/ is not all stubs: not checking the wording (%q)", status)
				} else {
					if want := "Yours: " + reason; status != want {
						t.Errorf("impl-status = %q, want %q", status, want)
					}
					if !Eval[bool](t, ctx, v.js("impl-status")+`.classList.contains("viz-bad")`) {
						t.Errorf("impl-status %q is not marked as a problem (class viz-bad)", status)
					}
					for _, id := range implLanes {
						if got, want := f.text("status-"+id), "Stopped: "+reason; got != want {
							t.Errorf("status-%s = %q, want %q", id, got, want)
						}
						if got := f.int("accepted-" + id); got != 0 {
							t.Errorf("stopped lane %s accepted %d", id, got)
						}
					}
				}
				for _, id := range labLanes {
					if got := f.text("status-" + id); got != "" {
						t.Errorf("lab lane %s with Yours: status %q, want it running", id, got)
					}
					if f.int("accepted-"+id) == 0 {
						t.Errorf("lab lane %s accepted nothing in %s messages with Yours", id, f.text("messages"))
					}
				}
				if e := f.text("viz-error"); e != "" {
					t.Errorf("viz-error with Yours = %q", e)
				}

				v.set("impl", "reference")
				cond := `f["impl-status"] === "Reference" && n("messages") >= 1000`
				for _, id := range implLanes {
					cond += ` && n("accepted-` + id + `") > 0 && f["status-` + id + `"] === ""`
				}
				f = v.waitFor("Reference again, every lane accepting", cond)
				if e := f.text("viz-error"); e != "" {
					t.Errorf("viz-error with Reference = %q", e)
				}
				if e := errs(); len(e) > 0 {
					t.Errorf("console errors: %q", e)
				}
			})
		}
	}
}

// vizProbe is injected into every document before its scripts run: it
// notes performance.now() when a visualization marks itself ready, and
// wraps requestAnimationFrame to count frames and the time callbacks take.
const vizProbe = `(() => {
	const st = window.__vizProbe = {ready: null, frames: 0, calls: 0, busy: 0, lastTs: -1};
	const mark = () => {
		if (st.ready === null && document.querySelector("[data-viz-ready]")) {
			st.ready = performance.now();
			obs.disconnect();
		}
	};
	const obs = new MutationObserver(mark);
	obs.observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-viz-ready"]});
	const raf = window.requestAnimationFrame.bind(window);
	window.requestAnimationFrame = cb => raf(ts => {
		if (ts !== st.lastTs) { st.frames++; st.lastTs = ts; }
		st.calls++;
		const t0 = performance.now();
		try { cb(ts); } finally { st.busy += performance.now() - t0; }
	});
})();`

// frameRate measures frames per second over about two seconds of real
// time in the page, and the mean time animation-frame callbacks take per
// frame.
func frameRate(t *testing.T, ctx context.Context) (fps, busyMs float64) {
	t.Helper()
	r, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`(async () => {
		const st = window.__vizProbe, t0 = performance.now(), f0 = st.frames, b0 = st.busy;
		await new Promise(r => setTimeout(r, 2000));
		const dt = performance.now() - t0, frames = st.frames - f0;
		return {fps: frames * 1000 / dt, busy: frames ? (st.busy - b0) / frames : 0};
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("measuring the frame rate: %v", err)
	}
	return r["fps"], r["busy"]
}

// Page load to first frame, and frames per second while the visualization
// runs: measured and logged, never asserted (wall time). What it asserts:
// the week's build (week-N.wasm) comes compressed, and the page animates: after the first frame,
// more frames come (three, however long they take). The other tests of the
// package run beside it in tabs of their own, so the figures are those of
// a busy browser: for figures to compare, run it alone (go test -run
// TestVizFirstFrameAndFrameRate).
func TestVizFirstFrameAndFrameRate(t *testing.T) {
	t.Parallel()
	for _, l := range vizLessons {
		t.Run(l.slug, func(t *testing.T) {
			t.Parallel()
			// A browser context of its own (nothing cached), drawing every
			// frame the browser offers: the frame rate is what it measures.
			ctx := NewBrowser(t, BrowserOptions{EveryFrame: true})
			requireWasm(t)
			s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: vizProbe}); err != nil {
				t.Fatalf("injecting the probe: %v", err)
			}
			v := openViz(t, ctx, s, l.slug, l.preset)
			m, err := chromedp.Run(ctx, chromedp.Poll[map[string]float64](`(() => {
				const st = window.__vizProbe, nav = performance.getEntriesByType("navigation")[0];
				const w = performance.getEntriesByType("resource").find(e => e.name.endsWith("/static/" + `+strconv.Quote(weekWasm(t, l.slug))+`));
				if (!st || st.ready === null || !nav || nav.loadEventEnd === 0 || !w) return null;
				return {ready: st.ready, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
					wasmStart: w.startTime, wasmEnd: w.responseEnd, wasmEncoded: w.encodedBodySize, wasmDecoded: w.decodedBodySize};
			})()`, chromedp.WithPollingTimeout(vizTimeout)))
			if err != nil {
				t.Fatalf("reading the probe: %v", err)
			}
			t.Logf("%s: first frame %.0f ms after navigation start (DOMContentLoaded %.0f ms, load %.0f ms; its wasm fetched %.0f–%.0f ms, %.0f bytes on the wire, %.0f decoded)",
				l.slug, m["ready"], m["dcl"], m["load"], m["wasmStart"], m["wasmEnd"], m["wasmEncoded"], m["wasmDecoded"])
			// Figures are logged, never asserted on; what must hold is that
			// the wasm came compressed and that the page animates at all.
			if m["wasmEncoded"] <= 0 || m["wasmEncoded"] >= m["wasmDecoded"] {
				t.Errorf("%s.wasm: %.0f bytes on the wire for %.0f decoded: want it compressed", l.slug, m["wasmEncoded"], m["wasmDecoded"])
			}
			// The page animates: frames keep coming after the first.
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(() => {
				const st = window.__vizProbe;
				if (st.f0 === undefined) st.f0 = st.frames;
				return st.frames >= st.f0 + 3;
			})()`, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout))); err != nil {
				t.Fatalf("%s: waiting for three animation frames after the first: %v (frames counted: %v)", l.slug, err, Eval[float64](t, ctx, `window.__vizProbe.frames`))
			}
			fps, busy := frameRate(t, ctx)
			t.Logf("%s at the preset's speed 1×: %.1f frames/s, %.2f ms of animation callbacks per frame", l.slug, fps, busy)
			v.set("speed", "30")
			fps, busy = frameRate(t, ctx)
			f := v.figures()
			t.Logf("%s at 30×: %.1f frames/s, %.2f ms of animation callbacks per frame (%s, %s messages)",
				l.slug, fps, busy, f.text("clock"), f.text("messages"))
		})
	}
}

// Screenshots of both lessons with the visualization running, on a desktop
// and on a phone; a phone must not scroll sideways.
func TestVizScreenshots(t *testing.T) {
	t.Parallel()
	for _, l := range vizLessons {
		t.Run(l.slug, func(t *testing.T) {
			t.Parallel()
			ctx := NewBrowser(t, BrowserOptions{})
			requireWasm(t)
			errs := Console(ctx)
			s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
			for _, device := range []string{"desktop", "phone"} {
				if device == "phone" {
					Phone(t, ctx)
				}
				v := openViz(t, ctx, s, l.slug, l.preset)
				v.set("speed", "30")
				// Run past a few windows, so that the timelines have history.
				v.waitFor("3 s of virtual time", `parseFloat(f.clock.slice(4)) >= 3`)
				if device == "phone" {
					if w := Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
						t.Errorf("%s on a 390px phone is %dpx wide: it scrolls sideways", l.slug, w)
					}
				}
				Eval[bool](t, ctx, `(document.querySelector(`+strconv.Quote(v.mount)+`).scrollIntoView({block: "start"}), true)`)
				v.waitFor("a frame after scrolling", `true`)
				ScreenshotViewport(t, ctx, device+"-viz")
				if device == "phone" {
					// The lanes below the controls.
					Eval[bool](t, ctx, `(document.querySelector(`+strconv.Quote(v.sel("key-figure"))+`).scrollIntoView({block: "start"}), true)`)
					v.waitFor("a frame after scrolling", `true`)
					ScreenshotViewport(t, ctx, device+"-lanes")
				} else {
					Screenshot(t, ctx, device)
				}
			}
			if e := errs(); len(e) > 0 {
				t.Errorf("console errors: %q", e)
			}
		})
	}
}

// lab.wasm is served as application/wasm: the lab.wasm.br BuildAssets wrote
// (as make wasm does) when the client accepts br, gzip when it accepts gzip
// only, raw when it accepts neither; each decodes to the file built.
func TestVizWasmServedCompressed(t *testing.T) {
	t.Parallel()
	RequireChromium(t) // TestMain builds lab.wasm only when a browser is there
	requireWasm(t)
	raw, err := os.ReadFile(filepath.Join(assets.Dir, "lab.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	// No transparent decompression: see the bytes as served.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(acceptEncoding string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, s.URL+"/static/lab.wasm", nil)
		if err != nil {
			t.Fatal(err)
		}
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /static/lab.wasm (Accept-Encoding %q) = %d", acceptEncoding, resp.StatusCode)
		}
		if got := resp.Header.Get("Content-Type"); got != "application/wasm" {
			t.Errorf("Accept-Encoding %q: Content-Type = %q, want application/wasm", acceptEncoding, got)
		}
		// net/http's ServeContent leaves Content-Length out when the
		// handler set Content-Encoding: the gzipped body comes chunked.
		if got := resp.Header.Get("Content-Length"); got != "" && got != strconv.Itoa(len(body)) {
			t.Errorf("Accept-Encoding %q: Content-Length = %q, body is %d bytes", acceptEncoding, got, len(body))
		}
		return resp, body
	}

	if !assets.Precompressed {
		t.Fatal("BuildAssets wrote no lab.wasm.br and lab.wasm.gz")
	}
	resp, br := get("gzip, deflate, br, zstd") // Chromium's
	if got := resp.Header.Get("Content-Encoding"); got != "br" {
		t.Fatalf("Accept-Encoding br: Content-Encoding = %q, want br", got)
	}
	if got := resp.Header.Get("Vary"); !strings.Contains(got, "Accept-Encoding") {
		t.Errorf("Vary = %q, want Accept-Encoding", got)
	}
	unbrotli, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
	if err != nil {
		t.Fatalf("the Brotli lab.wasm: %v", err)
	}
	if !bytes.Equal(unbrotli, raw) {
		t.Errorf("lab.wasm decoded from Brotli (%d bytes) differs from the file built (%d bytes)", len(unbrotli), len(raw))
	}

	resp, gz := get("gzip, deflate")
	if got := resp.Header.Get("Content-Encoding"); got != "gzip" {
		t.Fatalf("Accept-Encoding gzip: Content-Encoding = %q, want gzip", got)
	}
	if got := resp.Header.Get("Vary"); !strings.Contains(got, "Accept-Encoding") {
		t.Errorf("Vary = %q, want Accept-Encoding", got)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatalf("the gzipped lab.wasm: %v", err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("the gzipped lab.wasm: %v", err)
	}
	if !bytes.Equal(unzipped, raw) {
		t.Errorf("gunzipped lab.wasm (%d bytes) differs from the file built (%d bytes)", len(unzipped), len(raw))
	}
	if len(gz) >= len(raw) {
		t.Errorf("gzipped lab.wasm is %d bytes, raw %d: compression does not pay", len(gz), len(raw))
	}
	length := resp.Header.Get("Content-Length")
	if length == "" {
		length = "none, " + strings.Join(resp.TransferEncoding, ",")
	}
	t.Logf("lab.wasm: %d bytes raw, %d bytes gzipped as served (%.1f%%; Content-Length: %s), %d as Brotli (%.1f%%)",
		len(raw), len(gz), 100*float64(len(gz))/float64(len(raw)), length, len(br), 100*float64(len(br))/float64(len(raw)))
	if len(br) >= len(gz) {
		t.Errorf("lab.wasm: %d bytes as Brotli, %d gzipped: want Brotli smaller", len(br), len(gz))
	}

	for _, ae := range []string{"", "identity", "gzip;q=0"} {
		resp, body := get(ae)
		if got := resp.Header.Get("Content-Encoding"); got != "" {
			t.Errorf("Accept-Encoding %q: Content-Encoding = %q, want none", ae, got)
		}
		if got := resp.Header.Get("Content-Length"); got != strconv.Itoa(len(raw)) {
			t.Errorf("Accept-Encoding %q: Content-Length = %q, want %d", ae, got, len(raw))
		}
		if !bytes.Equal(body, raw) {
			t.Errorf("Accept-Encoding %q: body is %d bytes, not the %d-byte file", ae, len(body), len(raw))
		}
	}
	if !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Errorf("lab.wasm does not start with the WebAssembly magic number")
	}
}
