package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A new "Yours" build (live.js dispatches ratelab:yours after a save) is
// fetched beside the running lab.wasm and takes over: a visualization
// showing "Yours" restarts on it at once, without a reload of the page.
func TestNewYoursBuildIsSwappedIn(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir}) // the lab.wasm TestMain built, not web/static's (absent before make wasm)
	v := openViz(t, ctx, s, "week-2", "edge-attack")
	v.set("impl", "yours")
	v.waitFor("Yours", `f["impl-status"].startsWith("Yours")`)
	Eval[bool](t, ctx, `(window.rlBefore = globalThis.ratelab, window.rlPage = performance.timeOrigin, true)`)
	Eval[bool](t, ctx, `(document.dispatchEvent(new CustomEvent("ratelab:yours", {detail: {version: 7}})), true)`)
	started := `performance.getEntriesByType("resource").some((e) => e.name.includes("lab.wasm?v=7")) && globalThis.ratelab !== window.rlBefore`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](started, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout))); err != nil {
		t.Fatalf("waiting for the new build to be fetched and started: %v", err)
	}
	// Restarted on the new build, still "Yours", on the same page.
	v.waitFor("Yours after the swap", `f["impl-status"].startsWith("Yours")`)
	if same := Eval[bool](t, ctx, `performance.timeOrigin === window.rlPage`); !same {
		t.Error("the page was reloaded; the build should be swapped in place")
	}
	v.set("impl", "reference")
	v.waitFor("Reference on the new build", `f["impl-status"] === "Reference"`)
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
