package browsertest

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/grader/report"
)

// The tests of "Yours" in a Web Worker (web/static/viz/remote.js and
// worker.js): learner code that never returns cannot freeze the page.

// addReferenceViz mounts a second limiters visualization, on the
// reference, under the lesson's (data-testid viz-second), and waits until
// it draws.
func addReferenceViz(t *testing.T, ctx context.Context, after string) *vizPage {
	t.Helper()
	Eval[bool](t, ctx, `(() => {
		const d = document.createElement("div");
		d.className = "viz";
		d.dataset.viz = "limiters";
		d.dataset.testid = "viz-second";
		document.querySelector(`+strconv.Quote(after)+`).after(d);
		import("/static/viz/common.js").then((m) => m.mount(d));
		return true;
	})()`)
	v := newVizPage(t, ctx, "viz-second")
	v.waitReady()
	return v
}

// endlessWasm builds lab.wasm with the fixture testdata/endless-tokenbucket
// as Yours' token bucket, and returns the module's root and the folder of
// static files that holds it.
func endlessWasm(t *testing.T) (root, static string) {
	t.Helper()
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	endless, err := filepath.Abs(filepath.Join("testdata", "endless-tokenbucket"))
	if err != nil {
		t.Fatal(err)
	}
	return root, fixtureWasm(t, root, "tokenbucket", endless)
}

// clockSeconds reads a limiters clock ("t = 1.234 s", maybe with a note).
func clockSeconds(t *testing.T, clock string) float64 {
	t.Helper()
	m := regexp.MustCompile(`^t = ([0-9.]+) s`).FindStringSubmatch(clock)
	if m == nil {
		t.Fatalf("clock %q is not t = <seconds> s", clock)
	}
	x, _ := strconv.ParseFloat(m[1], 64)
	return x
}

// pollProbe polls the page until the JavaScript condition cond holds and
// returns window.rlProbe then.
func pollProbe(t *testing.T, ctx context.Context, cond string) map[string]any {
	t.Helper()
	m, err := chromedp.Run(ctx, chromedp.Poll[map[string]any](`(`+cond+`) ? rlProbe : null`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout)))
	if err != nil {
		t.Fatalf("waiting for %s: %v (probe %v)", cond, err, Eval[map[string]any](t, ctx, `rlProbe`))
	}
	return m
}

// A Yours whose TryAcquire loops forever from t = 1 s (the fixture
// testdata/endless-tokenbucket built into lab.wasm): while the worker is
// stuck, a click on the visualization is answered before the page reports
// the hang (the DOM change its handler makes comes first, in the page's own
// order of events), and a second visualization on the reference goes on
// (its clock moves from when the page says it waits to the report); after
// the deadline the page names the call and the simulated time it hung at;
// a correct Yours, built after, runs again in a fresh worker.
//
// What it asserts is an order of events in the page, never a duration:
// how long the click took to be answered is logged. A page whose main
// thread the stuck call froze answers no click before the report (or never
// reports), whatever the machine's speed.
func TestYoursEndlessLoopLeavesThePageResponsive(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	requireWasm(t)
	root, static := endlessWasm(t)
	correct := fixtureWasm(t, root, "tokenbucket", filepath.Join(root, "grader", "testdata", "fixtures", "tokenbucket", "correct-split"))
	s := StartServer(t, ServerOptions{StaticDir: static})
	// Its browser comes after the slow work (building lab.wasm), so that
	// its timeout bounds the use of the browser alone.
	ctx := NewBrowser(t, BrowserOptions{Timeout: 4 * time.Minute})
	errs := Console(ctx)

	v := openViz(t, ctx, s, "week-2", "edge-attack")
	ref := addReferenceViz(t, ctx, v.mount)

	// In the page: the click's event time and when its handler changed the
	// button; when the page last said it waits for Yours before the report,
	// and both clocks then; when the hang was reported; the reference's
	// clock at the click and at the report.
	Eval[bool](t, ctx, `(() => {
		const pause = `+v.js("pause")+`, alert = `+v.js("viz-error")+`, refClock = `+ref.js("clock")+`, clock = `+v.js("clock")+`, dot = `+v.js("viz-ready")+`;
		window.rlProbe = {};
		pause.addEventListener("click", (e) => {
			if (rlProbe.clickAt === undefined) Object.assign(rlProbe, {clickAt: e.timeStamp, refAtClick: refClock.textContent, yoursAtClick: clock.textContent});
		}, {capture: true});
		new MutationObserver(() => {
			if (rlProbe.changedAt === undefined && rlProbe.clickAt !== undefined) rlProbe.changedAt = performance.now();
		}).observe(pause, {attributes: true, attributeFilter: ["aria-pressed"]});
		new MutationObserver(() => {
			if (rlProbe.hungAt === undefined && dot.textContent === "waiting for Yours…") Object.assign(rlProbe, {waitingAt: performance.now(), refAtWaiting: refClock.textContent, yoursAtWaiting: clock.textContent});
		}).observe(dot, {childList: true, characterData: true, subtree: true});
		new MutationObserver(() => {
			if (rlProbe.hungAt === undefined && !alert.hidden && alert.textContent) Object.assign(rlProbe, {hungAt: performance.now(), refAtHang: refClock.textContent});
		}).observe(alert, {attributes: true, childList: true, characterData: true, subtree: true});
		return true;
	})()`)
	// Where to click Pause: one input event, not a query first, so that it
	// lands while the worker is stuck.
	at := Eval[[]float64](t, ctx, `(() => {
		const b = `+v.js("pause")+`;
		b.scrollIntoView({block: "center"});
		const r = b.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`)

	v.set("impl", "yours")
	// The report names the learner's code, not the lab's internal call.
	report := regexp.MustCompile(`^Your code \(TryAcquire in exercises/slidingwindow, exercises/tokenbucket or exercises/gcra\) did not return within 1 s at t = ([0-9.]+) s: an endless loop\?$`)
	var (
		f     figures
		probe map[string]any
		tries []string
	)
	// The click must land while the call is stuck: after the page says it
	// waits (250 ms into the call) and before the deadline (1 s), with
	// Yours' clock at the click the time of the report (so not during an
	// earlier, slow call). On a busy machine the test's click may land too
	// late (the page's waiting passed before the test saw it) or during an
	// earlier, slow call (then it pauses the run before the loop), or the
	// operating system may leave the page's thread unscheduled until after
	// the report although the click came before it (the stuck worker spins
	// a core of its own); then the run is restarted and the order checked
	// again, up to 5 times. A page whose thread the stuck call froze answers
	// no click before the report in any attempt.
	//
	// attempt makes one try and returns why it does not count, or "" if it
	// does. A report of a hang before t = 1 s, where the fixture's loop
	// starts, is a call that took over 1 s on a busy machine: it too is
	// tried again.
	attempt := func(n int) string {
		Eval[bool](t, ctx, `(window.rlProbe = {}, true)`)
		// Running (the worker has loaded lab.wasm), then stuck at 1 s. The
		// report, if the test did not see the run before it, is waited for
		// too: it ends the attempt (and is not restarted by waitFor).
		f = v.waitFor("Yours running (or its report)", `f["impl-status"].startsWith("Yours") && (f["viz-error"] !== "" || parseFloat(f.clock.slice(4)) > 0.3)`)
		if e := f.text("viz-error"); e != "" {
			return fmt.Sprintf("the run reached a report before the test saw it run: %q", e)
		}
		v.waitFor("the page waiting for Yours (or its report, if the wait passed unseen)", `f["viz-ready"] === "waiting for Yours…" || f["viz-error"] !== ""`)
		Do(t, ctx, chromedp.MouseClickXY(at[0], at[1]))
		f = v.waitFor("the report of the endless loop (or the run paused by a click during an earlier, slow call)", `f["viz-error"] !== "" || f["viz-ready"] === "paused"`)
		msg := f.text("viz-error")
		if msg == "" {
			return fmt.Sprintf("the click came at %s, during a slow call before the stuck one, and paused the run", f.text("clock"))
		}
		m := report.FindStringSubmatch(msg)
		if m == nil {
			t.Fatalf("the report = %q; want %s", msg, report)
		}
		// The fixture loops from 1 s; the run had decided up to the frame
		// before (at 1×, at most 100 ms before).
		hungAtSim, _ := strconv.ParseFloat(m[1], 64)
		if hungAtSim > 1 {
			t.Errorf("the report's time = %v s; want the last time before 1 s the run reached", hungAtSim)
		}
		if hungAtSim < 0.8 {
			return fmt.Sprintf("a call before the endless one took over 1 s (the report says t = %v s)", hungAtSim)
		}
		// The lanes of the learner's code shown: the token bucket hung, the
		// sliding window is still the stub.
		want := "Yours: Token bucket: did not return (an endless loop?)"
		if stillAStub(t, "exercises/slidingwindow/slidingwindow.go") {
			want = "Yours: Sliding window: not implemented yet; Token bucket: did not return (an endless loop?)"
		}
		if got := f.text("impl-status"); got != want {
			t.Errorf("status = %q; want %q", got, want)
		}
		// The click's event and, for a click that came before the report,
		// its DOM change, which may come after the report on a busy machine.
		probe = pollProbe(t, ctx, `rlProbe.clickAt !== undefined && (rlProbe.clickAt >= rlProbe.hungAt || rlProbe.changedAt !== undefined)`)
		clickAt, ok1 := probe["clickAt"].(float64)
		changedAt, ok2 := probe["changedAt"].(float64)
		hungAt, ok3 := probe["hungAt"].(float64)
		if !ok1 || !ok3 || (!ok2 && clickAt < hungAt) {
			t.Fatalf("the page's probe = %v; want the click, its DOM change and the report", probe)
		}
		yoursAtClick := clockSeconds(t, probe["yoursAtClick"].(string))
		waitingAt, waited := probe["waitingAt"].(float64)
		var refAtWaiting, yoursAtWaiting float64
		if waited {
			refAtWaiting = clockSeconds(t, probe["refAtWaiting"].(string))
			yoursAtWaiting = clockSeconds(t, probe["yoursAtWaiting"].(string))
		}
		refAtHang := clockSeconds(t, probe["refAtHang"].(string))
		switch {
		case clickAt >= hungAt:
			return fmt.Sprintf("the click came %.0f ms after the report", clickAt-hungAt)
		case math.Abs(yoursAtClick-hungAtSim) > 0.0005:
			return fmt.Sprintf("the click came at Yours' t = %v s, before the stuck call at %v s", yoursAtClick, hungAtSim)
		case changedAt >= hungAt:
			return fmt.Sprintf("the click came %.0f ms before the report, and was answered %.0f ms after it", hungAt-clickAt, changedAt-hungAt)
		case !waited || math.Abs(yoursAtWaiting-hungAtSim) > 0.0005:
			return fmt.Sprintf("the page did not say it waits for the stuck call (probe %v)", probe)
		case refAtHang <= refAtWaiting:
			return fmt.Sprintf("the reference's clock stood at %v s from the wait (%.0f ms before the report) to the report", refAtHang, hungAt-waitingAt)
		}
		t.Logf("click answered in %.1f ms while Yours was stuck, %.0f ms before the report; the reference went from %v s to %v s meanwhile (attempt %d, before: %q)",
			changedAt-clickAt, hungAt-changedAt, refAtWaiting, refAtHang, n, tries)
		return ""
	}
	for n := 1; ; n++ {
		why := attempt(n)
		if why == "" {
			break
		}
		tries = append(tries, why)
		if n == 5 {
			t.Fatalf("no click answered before the report while Yours was stuck, with the reference going on, in 5 attempts: %q", tries)
		}
		// A new run from t = 0, its first figures shown before the next
		// attempt reads any (not the old run's, nor its report), then on.
		v.restartPaused()
		v.setPaused(false)
	}
	atHang := clockSeconds(t, probe["refAtHang"].(string))
	ref.waitFor("the reference going on after the report", `parseFloat(f.clock.slice(4)) > `+strconv.FormatFloat(atHang+0.2, 'f', 3, 64))

	// In the visualization that hung, the lab's own fixed window runs on
	// past the hang, while the lanes of the learner's code stay stopped
	// with their figures as they were, and Pause still works.
	hung := v.figures()
	hungAt := clockSeconds(t, hung.text("clock"))
	v.setPaused(false)
	f = v.waitUnaided("the fixed window going on after the hang", `parseFloat(f.clock.slice(4)) > `+strconv.FormatFloat(hungAt+0.5, 'f', 3, 64)+` && n("accepted-fixed") > `+strconv.FormatInt(hung.int("accepted-fixed"), 10))
	for _, lane := range []string{"sliding", "tokenbucket"} {
		if got, was := f.int("accepted-"+lane), hung.int("accepted-"+lane); got != was {
			t.Errorf("%s accepted %d after the hang, %d at it; want its figures kept as they were", lane, got, was)
		}
	}
	if st := f.text("status-tokenbucket"); st != "Stopped: did not return (an endless loop?)" {
		t.Errorf("the token bucket's status = %q; want Stopped: did not return (an endless loop?)", st)
	}
	if f.text("viz-ready") != "live" || f.text("viz-error") != hung.text("viz-error") {
		t.Errorf("after the hang: ready dot %q, error %q; want live and the report kept", f.text("viz-ready"), f.text("viz-error"))
	}
	v.setPaused(true)
	v.waitUnaided("Pause to pause the lab's lanes", `f["viz-ready"] === "paused"`)
	ScreenshotViewport(t, ctx, "endless-loop")

	// A correct build of Yours, served as a new live build: the stopped
	// visualization runs it in a fresh worker, past the time that hung.
	builds, _ := filepath.Glob(filepath.Join(correct, "*.wasm"))
	for _, b := range builds {
		wasm, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(static, filepath.Base(b)), wasm, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v.set("speed", "5")
	v.setPaused(false)
	Eval[bool](t, ctx, `(document.dispatchEvent(new CustomEvent("ratelab:yours", {detail: {version: 2}})), true)`)
	v.waitUnaided("the correct Yours past 2 s", `f["impl-status"].startsWith("Yours") && f["viz-error"] === "" && parseFloat(f.clock.slice(4)) > 2 && n("accepted-tokenbucket") > 0`)
	// The dot says "waiting for Yours…" while a call takes over 250 ms (a
	// busy machine, the fresh worker warming up), and not for good.
	v.waitUnaided("the ready dot past waiting", `f["viz-ready"] === "live" || f["viz-ready"] === "paused"`)
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// callsPerSecondJS measures, in a page that has loaded common.js, how many
// messages a limiters simulation decides per second of wall time, called
// as the visualization calls it each frame (a step, then state), with
// steps of 20,000 messages (the most a frame asks for) and of 1 (then it
// counts the pairs of calls the run answers per second): on the
// reference, on Yours called on the main thread (lab.wasm's own API, as
// the page did before the worker) and on Yours in the worker (the API
// common.js hands out). Each for about 0.5 s, and at least one step
// however long that takes, five rounds in turn (the worker's lab.wasm
// starts cold: the browser compiles its hot functions again); it returns
// each one's rounds, by "way/step size". A measure that the worker's
// watchdog stopped (a call over 1 s of wall time, on a busy machine) is
// taken again in the fresh worker, up to WATCHDOG_RESTARTS times, and
// listed in restarts.
const callsPerSecondJS = `(async () => {
	const m = await import("/static/viz/common.js");
	const face = await m.loadWasm("/static/lab.wasm", "/static/wasm_exec.js");
	const raw = globalThis.ratelab;
	const cfg = {traffic: "steady", limit: 100000, windowMs: 1, buckets: 10, burst: 0, refill: "exact", seed: 1};
	const ways = {reference: [face, "reference"], "yours-main": [raw, "yours"], "yours-worker": [face, "yours"]};
	const batch = new Uint8Array(9 * 20000), state = new Uint8Array(8 * 1024);
	const measure = async (name, api, impl, size) => {
		const run = await api.newSim({...cfg, impl});
		if (run.error) throw new Error(name + ": " + run.error);
		await run.step(size, 1e30, batch); // warm
		let decided = 0;
		const t0 = performance.now();
		do {
			decided += await run.step(size, 1e30, batch);
			await run.state(state);
		} while (performance.now() - t0 < 500);
		const rate = decided * 1000 / (performance.now() - t0);
		await run.free();
		return rate;
	};
	const out = {rounds: {}, restarts: []};
	for (let round = 0; round < 5; round++) {
		for (const size of [20000, 1]) {
			for (const [name, [api, impl]] of Object.entries(ways)) {
				const key = name + "/" + size;
				for (let restarts = 0; ; restarts++) {
					try {
						(out.rounds[key] = out.rounds[key] || []).push(await measure(name, api, impl, size));
						break;
					} catch (e) {
						if (!(e && e.name === "Hung") || restarts === WATCHDOG_RESTARTS) throw e;
						out.restarts.push(key + ": " + e.message);
					}
				}
			}
		}
	}
	return out;
})()`

// The worker's cost: how many messages per second a limiters simulation
// decides, and how many calls it answers, on the reference, on Yours on
// the main thread (as before the worker) and on Yours in the worker, with
// a correct token bucket as Yours (the other exercises are the stubs: their
// lanes stop, so Yours decides for fewer lanes than the reference).
// Measured and logged, not asserted (wall time): the test fails only if a
// round of one of them decides nothing, and every round makes at least one
// step whatever the machine's speed. The other tests of the package run
// beside it in tabs of their own, so the figures are those of a busy
// browser: for figures to compare, run it alone (go test -run
// TestYoursCallsPerSecond).
func TestYoursCallsPerSecond(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	requireWasm(t)
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	static := fixtureWasm(t, root, "tokenbucket", filepath.Join(root, "grader", "testdata", "fixtures", "tokenbucket", "correct-split"))
	s := StartServer(t, ServerOptions{StaticDir: static})
	// Its browser comes after the slow work (building lab.wasm), so that
	// its timeout bounds the use of the browser alone.
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	errs := Console(ctx)
	openViz(t, ctx, s, "week-2", "edge-attack")
	js := strings.Replace(callsPerSecondJS, "WATCHDOG_RESTARTS", strconv.Itoa(watchdogRestarts), 1)
	measured, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Rounds   map[string][]float64 `json:"rounds"`
		Restarts []string             `json:"restarts"`
	}](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("measuring: %v", err)
	}
	rounds := measured.Rounds
	for _, r := range measured.Restarts {
		t.Logf("the page's watchdog stopped a measure, taken again: %s", r)
	}
	for _, name := range []string{"reference/20000", "yours-main/20000", "yours-worker/20000", "reference/1", "yours-main/1", "yours-worker/1"} {
		r := slices.Clone(rounds[name])
		slices.Sort(r)
		if len(r) == 0 {
			t.Fatalf("%s: no measure", name)
		}
		worst, best, median := r[0], r[len(r)-1], r[len(r)/2]
		t.Logf("%s: %.0f decisions per second at best, %.0f the median (rounds in turn %.0f)", name, best, median, rounds[name])
		if !(worst > 0) {
			t.Errorf("%s decided nothing in a round (rounds in turn %.0f)", name, rounds[name])
		}
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// endlessReport is a grade of the token bucket whose failed check's
// counterexample calls TryAcquire at 2 s: where the endless fixture never
// returns.
func endlessReport() *report.Report {
	r := &report.Report{
		Schema: report.Schema, Target: "exercises", Seed: 1,
		Exercises: []report.Exercise{{
			ID: "tokenbucket", Week: 1, Title: "Token bucket", Status: report.Failed, Score: 0, MaxScore: 5,
			Checks: []report.Check{{
				ID: "tokenbucket/exactness", Title: "Agrees with the model on every call",
				Kind: report.Property, Pitfall: "exactness", Status: report.Failed, Score: 0, MaxScore: 5,
				Message: "TryAcquire did not return.",
				Counterexample: &report.Counterexample{
					Setup:     "New(capacity=1, ratePerSec=1000, nowNs=0)",
					SetupCall: &report.Call{Name: "New", Args: map[string]any{"capacity": "1", "ratePerSec": "1000", "nowNs": "0"}},
					Steps: []report.Step{
						{Call: "TryAcquire(nowNs=0, n=1)", Got: "true", Want: "true", Name: "TryAcquire", Args: map[string]any{"nowNs": "0", "n": "1"}},
						{Call: "TryAcquire(nowNs=2000000000, n=1)", Got: "", Want: "true", Name: "TryAcquire", Args: map[string]any{"nowNs": "2000000000", "n": "1"}},
					},
				},
			}},
		}},
	}
	r.Total()
	return r
}

// A replay runs in Yours' worker too: with a Yours that never returns, it
// says so after the deadline, and the next replay runs in a fresh worker
// (and says so again).
func TestReplayOfAnEndlessYours(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	requireWasm(t)
	_, static := endlessWasm(t)
	s := StartServer(t, ServerOptions{StaticDir: static, Reports: []*report.Report{endlessReport()}})
	// Its browser comes after the slow work (building lab.wasm), so that
	// its timeout bounds the use of the browser alone.
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	errs := Console(ctx)
	Open(t, ctx, s, "/exercises/tokenbucket", "exercise-title")
	WaitTestID(t, ctx, "replay-button")
	const want = "Could not replay: Yours did not return within 1 s: an endless loop?"
	for i := 1; i <= 2; i++ {
		if i == 2 { // hide, then replay again
			Eval[bool](t, ctx, `document.querySelector('[data-testid="replay-button"]').click() || true`)
		}
		Eval[bool](t, ctx, `document.querySelector('[data-testid="replay-button"]').click() || true`)
		got, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => {
			const e = document.querySelector('[data-testid="replay-error"]');
			return e ? e.textContent : null;
		})()`, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout)))
		if err != nil {
			t.Fatalf("replay %d: waiting for the error: %v", i, err)
		}
		if got != want {
			t.Errorf("replay %d: %q; want %q", i, got, want)
		}
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
