package browsertest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The week 3 gateway test drives web/static/viz/gateway.js (the policy
// around the throttle: one client's flood through the gateway exercise and
// through one shared budget) on the week 3 lesson, and checks what the
// lesson promises from what the page shows, after running the 12 s
// timeline at the top speed.

// ratio reads a figure written "accepted / sent" ("15 / 15").
func ratio(t *testing.T, f map[string]string, id string) (a, b float64) {
	t.Helper()
	s := strings.ReplaceAll(f[id], ",", "")
	if _, err := fmt.Sscanf(s, "%g / %g", &a, &b); err != nil {
		t.Fatalf("%s = %q, want a / b: %v", id, f[id], err)
	}
	return a, b
}

// flood is one row of a side's table of floods that escalated, as ages in
// ms from its first refusal; -1 where the page shows a dash.
type flood struct{ began, reject, silent, disconnect float64 }

func floods(t *testing.T, f map[string]string, side string) []flood {
	t.Helper()
	var out []flood
	for i := 0; ; i++ {
		id := side + "-flood" + strconv.Itoa(i) + "-"
		if _, ok := f[id+"began"]; !ok {
			return out
		}
		age := func(col string) float64 {
			if f[id+col] == "–" {
				return -1
			}
			return count(t, f, id+col)
		}
		out = append(out, flood{count(t, f, id+"began"), age("reject"), age("silent"), age("disconnect")})
	}
}

// screenshotMount saves a PNG of the whole mount, as Screenshot does a
// page's.
func screenshotMount(t *testing.T, ctx context.Context, m *mountView, name string) {
	t.Helper()
	saveScreenshot(t, ctx, name, chromedp.Screenshot(chromedp.CSS(m.mount)))
}

func TestWeek3Gateway(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	m := openWeek3(t, ctx, s, "viz-policy")

	m.set("speed", "10")
	f := m.waitFor("the 12 s run to end", `f["impl-status"] === "Gateway: Reference" && f.clock === "t = 12.0 s"`)

	// During the order flood, cancels pass on their own budget and are
	// refused on one shared with the orders.
	gOK, gSent := ratio(t, f, "gate-cancels")
	sOK, sSent := ratio(t, f, "shared-cancels")
	gRefused, _ := ratio(t, f, "gate-orders")
	sRefused, _ := ratio(t, f, "shared-orders")
	if gSent == 0 || gOK != gSent || gRefused == 0 {
		t.Errorf("own cancel budget: %v of %v cancels accepted in the flood, %v orders refused; want every cancel accepted while orders are refused", gOK, gSent, gRefused)
	}
	if sSent == 0 || 2*sOK > sSent || sRefused == 0 {
		t.Errorf("one shared budget: %v of %v cancels accepted in the flood; want most refused", sOK, sSent)
	}
	// The card and the sentence under it count the same orders: those
	// refused while the orders flooded.
	if want := "while " + strings.Fields(f["gate-orders"])[0] + " orders were refused"; !strings.Contains(f["gate-note"], want) {
		t.Errorf("the card says %q orders refused, the sentence under it %q; want it to say %q", f["gate-orders"], f["gate-note"], want)
	}
	if !strings.Contains(f["verdict"], "unable to cancel") {
		t.Errorf("verdict = %q, want it to say the shared budget leaves the client unable to cancel", f["verdict"])
	}
	// Heartbeats are never refused.
	for _, side := range []string{"gate", "shared"} {
		if refused, sent := ratio(t, f, side+"-heartbeats"); refused != 0 || sent == 0 {
			t.Errorf("%s: %v of %v heartbeats refused, want 0 of some", side, refused, sent)
		}
		if !strings.Contains(f[side+"-log"], "retry after") {
			t.Errorf("%s: the log of refusals shows no retry-after: %q", side, f[side+"-log"])
		}
	}

	// Escalation at the configured ages: the last Reject of a flood before
	// the silence age, its first Silent at it or within one message of it,
	// the Disconnect likewise at the disconnect age.
	silence, disconnect := count(t, f, "silence-after"), count(t, f, "disconnect-after")
	spacing := Eval[float64](t, ctx, `Math.min(...ratelab.gateway.scenario.phases.map(p => p.orderEveryNs)) / 1e6`)
	for _, side := range []string{"gate", "shared"} {
		rows := floods(t, f, side)
		silenced, disconnected := 0, 0
		for _, r := range rows {
			if r.reject >= silence {
				t.Errorf("%s: the flood from %v s still rejected at %v ms, past the silence age %v ms", side, r.began, r.reject, silence)
			}
			if r.silent >= 0 {
				silenced++
				if r.silent < silence || r.silent >= silence+spacing {
					t.Errorf("%s: the flood from %v s fell silent at %v ms; want from %v ms, within one message (%v ms)", side, r.began, r.silent, silence, spacing)
				}
			}
			if r.disconnect >= 0 {
				disconnected++
				if r.disconnect < disconnect || r.disconnect >= disconnect+spacing {
					t.Errorf("%s: the flood from %v s was disconnected at %v ms; want from %v ms, within one message (%v ms)", side, r.began, r.disconnect, disconnect, spacing)
				}
			}
		}
		if silenced == 0 || disconnected == 0 {
			t.Errorf("%s: %d floods fell silent, %d were disconnected; want both to happen:\n%s", side, silenced, disconnected, m.dump())
		}
		t.Logf("%s: %d floods escalated (%d silent, %d disconnected); %s", side, len(rows), silenced, disconnected, f[side+"-flood-note"])
	}
	if !strings.Contains(f["reload-note"], "Nobody is refilled") || !strings.Contains(f["reload-note"], "first refusal at") {
		t.Errorf("reload note = %q", f["reload-note"])
	}
	t.Logf("flood: own budget %v/%v cancels, %v orders refused; shared %v/%v cancels; escalation at %v and %v ms", gOK, gSent, gRefused, sOK, sSent, silence, disconnect)
	// A silent drop answers nothing: the page gives it no retry-after.
	// The logs keep the last refusals; pausing at a silent drop keeps one.
	m.setPaused(true)
	m.click("restart", 1)
	m.waitFor("a restarted run", `f.clock === "t = 0.0 s"`)
	m.pauseWhen("a silent drop in a log", m.js("gate-log")+`.textContent.includes("silent") || `+m.js("shared-log")+`.textContent.includes("silent")`)
	lines := Eval[[]string](t, ctx, `[...document.querySelectorAll(`+strconv.Quote(m.sel("gate-log")+" li, "+m.sel("shared-log")+" li")+`)].map((li) => li.textContent)`)
	silent := 0
	for _, l := range lines {
		if strings.Contains(l, "silent") {
			silent++
			if strings.Contains(l, "retry") {
				t.Errorf("a silent drop shown with a retry-after: %q", l)
			}
		}
	}
	if silent == 0 {
		t.Errorf("paused at a silent drop, the logs show none: %q", lines)
	}
	m.setPaused(false)
	m.waitFor("the 12 s run to end again", `f.clock === "t = 12.0 s"`)
	m.scrollIntoView()
	ScreenshotViewport(t, ctx, "reference")
	screenshotMount(t, ctx, m, "reference-mount")

	m.set("speed", yoursSpeed)
	m.set("impl", "yours")
	if stillAStub(t, "exercises/gateway/gateway.go") {
		f = m.waitFor("Yours to say it is not implemented", `f["impl-status"].includes("Yours: not implemented yet")`)
		f = m.waitFor("the shared budget to run on", `n("clock") >= 3`)
		if _, sent := ratio(t, f, "shared-cancels"); sent == 0 {
			t.Error("with Yours stopped, the shared budget must still run")
		}
		if f["gate-cancels"] != "–" {
			t.Errorf("a stopped gateway shows %q, want a dash", f["gate-cancels"])
		}
		// This server does not watch exercises/ (make run's does): make
		// run builds Yours; make wasm alone is not what a learner runs.
		if st := f["impl-status"]; !strings.HasSuffix(st, "Write exercises/gateway, then run make run.") {
			t.Errorf("status = %q; want it to end: Write exercises/gateway, then run make run.", st)
		}
	} else {
		f = m.waitFor("Yours to run", `f["impl-status"].startsWith("Gateway: Yours")`)
	}
	t.Logf("Yours: %s", f["impl-status"])
	ScreenshotViewport(t, ctx, "yours")

	m.set("impl", "reference")
	m.set("speed", "10")
	m.waitFor("the 12 s run to end again", `f["impl-status"] === "Gateway: Reference" && f.clock === "t = 12.0 s"`)
	Phone(t, ctx)
	m.scrollIntoView()
	ScreenshotViewport(t, ctx, "phone")
	screenshotMount(t, ctx, m, "phone-mount")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %v", e)
	}
}
