package browsertest

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ratelab/internal/weekbuild"
)

// The tests of what a learner meets first on a lesson page: controls used
// before lab.wasm has arrived, and a status that speaks of the lanes the
// page shows.

// A control changed while lab.wasm is still on its way cannot leave the
// visualization dead: until the lab has started, its controls are
// disabled and the ready dot says it is loading, and once it has, the run
// starts from the page's settings. Before, Code switched to Yours while
// "Loading…" read the Traffic select before it had options, and the
// visualization said `sim: unknown traffic ""` for good.
func TestControlsWaitForTheLab(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})

	// Hold every request for WebAssembly (the page's, week-1.wasm) until
	// the test lets it go.
	var (
		mu     sync.Mutex
		held   []fetch.RequestID
		holdOn = true
	)
	cont := func(id fetch.RequestID) error {
		_, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		return err
	}
	interceptWasm(t, ctx, "*.wasm*", func(e *fetch.EventRequestPaused) {
		id := e.RequestID
		mu.Lock()
		hold := holdOn
		if hold {
			held = append(held, id)
		}
		mu.Unlock()
		if !hold {
			cont(id)
		}
	})
	Open(t, ctx, s, "/lessons/week-2", "viz-edge-attack")
	v := newVizPage(t, ctx, "viz-edge-attack")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!`+v.js("impl"),
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout))); err != nil {
		t.Fatalf("waiting for the Code switch: %v", err)
	}
	for deadline := time.Now().Add(vizTimeout); ; {
		mu.Lock()
		n := len(held)
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no request for WebAssembly was held: the test would prove nothing")
		}
		time.Sleep(20 * time.Millisecond) // polling, with a deadline
	}
	f := v.figures()
	if f.text("viz-error") != "" || !strings.Contains(Eval[string](t, ctx, v.js("impl-status")+`.parentElement.textContent`), "loading…") {
		t.Errorf("while lab.wasm loads: error %q, status line %q; want no error and the dot saying loading…", f.text("viz-error"), Eval[string](t, ctx, v.js("impl-status")+`.parentElement.textContent`))
	}
	enabled := Eval[[]string](t, ctx, `[...document.querySelectorAll(`+strconv.Quote(v.mount+" input, "+v.mount+" select, "+v.mount+" button")+`)].filter((c) => !c.disabled).map((c) => c.dataset.testid || c.outerHTML)`)
	if len(enabled) > 0 {
		t.Errorf("controls enabled before lab.wasm started: %q", enabled)
	}
	// As a person would: focus the Code switch and press the down arrow
	// (Reference → Yours), then Restart.
	Eval[bool](t, ctx, `(`+v.js("impl")+`.focus(), `+v.js("restart")+`.click(), true)`)
	Do(t, ctx, chromedp.KeyEvent(kb.ArrowDown))

	mu.Lock()
	holdOn = false
	ids := held
	held = nil
	mu.Unlock()
	for _, id := range ids {
		if err := cont(id); err != nil {
			t.Fatal(err)
		}
	}
	v.waitReady()
	f = v.waitUnaided("the run going", `n("messages") > 0`)
	if f.text("viz-error") != "" || f.text("traffic") != "edge" || f.text("viz-ready") == "loading…" {
		t.Errorf("after lab.wasm came: error %q, traffic %q, dot %q; want no error, the preset's traffic (edge), and the dot past loading",
			f.text("viz-error"), f.text("traffic"), f.text("viz-ready"))
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// The status line names only the lanes the page shows: with a correct
// token bucket as Yours and the sliding window still the stub but hidden,
// it says "Yours"; shown, the sliding window's stub is named. Before, the
// status spoke of every lane the run had, hidden or not ("Yours: Sliding
// window: not implemented yet; GCRA: …" on a page that showed neither).
func TestStatusNamesTheShownLanesOnly(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	requireWasm(t)
	root, err := ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !stillAStub(t, "exercises/slidingwindow/slidingwindow.go") {
		t.Skip("exercises/slidingwindow is not the stub: this test needs a lane of Yours that stops")
	}
	static := fixtureWasm(t, root, "tokenbucket", filepath.Join(root, "grader", "testdata", "fixtures", "tokenbucket", "correct-split"))
	s := StartServer(t, ServerOptions{StaticDir: static})
	ctx := NewBrowser(t, BrowserOptions{})
	errs := Console(ctx)
	v := openViz(t, ctx, s, "week-2", "edge-attack")
	v.set("show-sliding", "false")
	v.set("impl", "yours")
	f := v.waitFor("Yours with the sliding window hidden", `f["impl-status"].startsWith("Yours") && n("accepted-tokenbucket") > 0`)
	if got := f.text("impl-status"); got != "Yours" {
		t.Errorf("status with the stub's lane hidden = %q; want Yours", got)
	}
	v.set("show-sliding", "true")
	f = v.waitFor("the sliding window shown", `f["impl-status"] !== "Yours"`)
	if got, want := f.text("impl-status"), "Yours: Sliding window: not implemented yet"; got != want {
		t.Errorf("status with the stub's lane shown = %q; want %q", got, want)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// A run of Yours that stops (here its worker cannot load the build: the
// test fails the worker's requests for yours-week-3.wasm; the page's
// reference comes from week-3.wasm) says so everywhere: the
// status, the error line, the dot ("stopped", not "live"), and Pause is
// disabled, there being no run to pause; back on the reference, the run
// goes on and Pause works again. On the week 3 policy visualization,
// which has no lane of the lab's own to go on with.
func TestStoppedYoursStopsItsControls(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	requireWasm(t)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})

	// Every request for the week's Yours build (the worker's) fails.
	var (
		mu     sync.Mutex
		failed int
	)
	interceptWasm(t, ctx, "*/static/"+weekbuild.YoursName(3)+"*", func(e *fetch.EventRequestPaused) {
		mu.Lock()
		failed++
		mu.Unlock()
		chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonConnectionRefused})
	})
	m := openWeek3(t, ctx, s, "viz-policy")
	m.set("impl", "yours")
	f := m.waitUnaided("Yours stopped", `f["viz-error"] !== ""`)
	mu.Lock()
	if failed == 0 {
		t.Errorf("no request of the worker's was failed; the page says %q", f.text("viz-error"))
	}
	mu.Unlock()
	if !strings.HasPrefix(f.text("viz-error"), "Yours could not start") || f.text("impl-status") != "Yours: stopped" || f.text("viz-ready") != "stopped" {
		t.Errorf("stopped Yours: error %q, status %q, dot %q; want Yours could not start…, Yours: stopped, stopped", f.text("viz-error"), f.text("impl-status"), f.text("viz-ready"))
	}
	if Eval[bool](t, ctx, `!`+m.js("pause")+`.disabled`) {
		t.Error("Pause is enabled on a stopped run")
	}
	m.set("impl", "reference")
	f = m.waitUnaided("the reference running again", `f["viz-error"] === "" && f["viz-ready"] === "live"`)
	if Eval[bool](t, ctx, m.js("pause")+`.disabled`) {
		t.Error("Pause is still disabled on the reference's run")
	}
	m.setPaused(true)
	m.waitUnaided("Pause to pause the reference", `f["viz-ready"] === "paused"`)
}

// interceptWasm pauses the tab's every request whose URL matches pattern
// (Fetch.enable's wildcards, e.g. "*.wasm*"), the worker's too, and hands
// each to paused, in a goroutine of its own (a command sent from
// chromedp's listener would wait on itself): paused continues, fails or
// keeps it.
func interceptWasm(t *testing.T, ctx context.Context, pattern string, paused func(*fetch.EventRequestPaused)) {
	t.Helper()
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			go paused(e)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern}}}); err != nil {
		t.Fatal(err)
	}
}
