package browsertest

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// A new "Yours" build (live.js dispatches ratelab:yours after a save,
// naming the builds made) takes over Yours when it is the page's: the
// worker fetches it (yours-week-1.wasm?v=N: week 2's lesson shows week
// 1's visualization, and loads its builds) and a visualization showing
// "Yours" restarts on it at once, without a reload of the page. Another
// week's new build changes nothing here. The reference goes on from the
// week's build the page started with, which no save changes: nothing
// fetches it again.
func TestNewYoursBuildIsSwappedIn(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	requireWasm(t)
	errs := Console(ctx)
	var (
		mu   sync.Mutex
		urls []string
	)
	// The worker's requests reach the Fetch domain, not the page's Network
	// events: every request for WebAssembly goes through it, noted.
	interceptWasm(t, ctx, "*.wasm*", func(e *fetch.EventRequestPaused) {
		mu.Lock()
		urls = append(urls, e.Request.URL)
		mu.Unlock()
		chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
	})
	fetched := func(part string) int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, u := range urls {
			if strings.Contains(u, part) {
				n++
			}
		}
		return n
	}
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir}) // the builds TestMain made, not web/static's (absent before make wasm)
	v := openViz(t, ctx, s, "week-2", "edge-attack")
	v.set("impl", "yours")
	v.waitFor("Yours", `f["impl-status"].startsWith("Yours")`)
	Eval[bool](t, ctx, `(window.rlBefore = globalThis.ratelab, window.rlPage = performance.timeOrigin, true)`)
	// Whether an announcement names the page's build: another week's
	// does not; a page that reconnected is told of no files, and takes
	// any build for new.
	rebuilt, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`import("/static/viz/remote.js").then((m) => [
		m.rebuilt("/static/yours-week-1.wasm", {files: ["yours-week-3.wasm", "lab.wasm"]}),
		m.rebuilt("/static/yours-week-1.wasm", {files: ["yours-week-1.wasm", "lab.wasm"]}),
		m.rebuilt("/static/yours-week-1.wasm?v=3", {files: ["yours-week-1.wasm"]}),
		m.rebuilt("/static/yours-week-1.wasm", {}),
	])`, chromedp.EvalAwaitPromise))
	if err != nil || !slices.Equal(rebuilt, []bool{false, true, true, true}) {
		t.Errorf("rebuilt(the page's build, files) for another week's, its own and none named: %v (%v); want false, true, true, true", rebuilt, err)
	}
	// Another week's build first: the page goes on with its own.
	Eval[bool](t, ctx, `(document.dispatchEvent(new CustomEvent("ratelab:yours", {detail: {version: 6, files: ["yours-week-3.wasm", "lab.wasm"]}})), true)`)
	Eval[bool](t, ctx, `(document.dispatchEvent(new CustomEvent("ratelab:yours", {detail: {version: 7, files: ["yours-week-1.wasm", "lab.wasm"]}})), true)`)
	for deadline := time.Now().Add(vizTimeout); fetched("/static/yours-week-1.wasm?v=7") == 0; {
		if time.Now().After(deadline) {
			mu.Lock()
			t.Fatalf("the new build of Yours was not fetched within %v; requests: %q", vizTimeout, urls)
		}
		time.Sleep(20 * time.Millisecond) // polling the event log, not timing anything
	}
	// Restarted on the new build, still "Yours", on the same page.
	v.waitFor("Yours after the swap", `f["impl-status"].startsWith("Yours")`)
	if same := Eval[bool](t, ctx, `performance.timeOrigin === window.rlPage`); !same {
		t.Error("the page was reloaded; the build should be swapped in place")
	}
	if same := Eval[bool](t, ctx, `globalThis.ratelab === window.rlBefore`); !same {
		t.Error("the page's own lab was restarted: the reference runs from the week's build, which a new Yours does not change")
	}
	if n := fetched("/static/week-1.wasm"); n != 1 {
		t.Errorf("week-1.wasm fetched %d times, want once", n)
	}
	if n := fetched("?v=6"); n != 0 {
		t.Errorf("a build of another week's Yours was announced, and %d requests followed it; want none", n)
	}
	v.set("impl", "reference")
	v.waitFor("Reference after the swap", `f["impl-status"] === "Reference"`)
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
