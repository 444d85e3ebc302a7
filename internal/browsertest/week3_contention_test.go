package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The contention test drives web/static/viz/fairqueue.js on the week 3
// lesson, against the lab.wasm TestMain built: one FIFO, round robin and
// deficit round robin serve the same arrivals side by side. It reads what
// each lane's panel shows (its numbers are also in data attributes) and the
// per-session table, after running at the top speed through two of the
// burster's bursts; virtual time is moved by polling, never by sleeping.

// contentionLane is what one lane's panel shows.
type contentionLane struct {
	Stopped    bool
	OutOfOrder float64
	WorstGap   float64
	WorstPair  string
	Bound      float64
	JointNs    float64
	Served     float64
	BurstPeak  float64
	Gap, Note  string             // the worst gap figure and its note, as shown
	P99        map[string]float64 // by session, ns
}

// contentionView is the contention mount in the page open in a tab.
type contentionView struct{ *vizPage }

// nowExpr is the virtual time the mount has reached, in ns.
func (c contentionView) nowExpr() string {
	return `Number((document.querySelector(` + strconv.Quote(c.mount) + ` + " .rfq") || {dataset: {}}).dataset.now || 0)`
}

// runTo waits until the run has reached virtual time ns (restarting a run
// of Yours that the page's watchdog stops meanwhile, as waitFor does).
func (c contentionView) runTo(ns float64) {
	c.t.Helper()
	c.waitFor(fmt.Sprintf("t >= %.0f s", ns/1e9), c.nowExpr()+" >= "+strconv.FormatFloat(ns, 'f', 0, 64))
}

// lane reads lane id's panel and its column of the table.
func (c contentionView) lane(id string) contentionLane {
	c.t.Helper()
	m := Eval[map[string]string](c.t, c.ctx, `(() => {
		const box = document.querySelector(`+strconv.Quote(c.sel("lane-"+id))+`);
		const out = {...box.dataset};
		out.gap = box.querySelector(".rfq-fig-gap-`+id+` .rfq-fig-value").textContent;
		out.note = box.querySelector(".rfq-fig-gap-`+id+` .rfq-fig-note").textContent;
		for (const td of document.querySelectorAll(`+strconv.Quote(c.mount+` td[data-lane="`+id+`"][data-col="share"]`)+`)) {
			out["p99" + td.parentElement.dataset.session] = td.dataset.p99;
		}
		return out;
	})()`)
	num := func(k string) float64 {
		x, err := strconv.ParseFloat(m[k], 64)
		if err != nil {
			c.t.Fatalf("lane %s: %s = %q, want a number (%v)", id, k, m[k], m)
		}
		return x
	}
	l := contentionLane{
		Stopped: m["stopped"] == "true", OutOfOrder: num("outOfOrder"), WorstGap: num("worstGap"), WorstPair: m["worstPair"],
		Bound: num("bound"), JointNs: num("jointNs"), Served: num("served"), BurstPeak: num("burstPeak"),
		Gap: m["gap"], Note: m["note"], P99: map[string]float64{},
	}
	for _, s := range []string{"A", "B", "C", "D", "E", "F"} {
		l.P99[s] = num("p99" + s)
	}
	return l
}

func TestWeek3Contention(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	Open(t, ctx, s, "/lessons/week-3", "viz-contention")
	onlyMount(t, ctx, "viz-contention")
	c := contentionView{newVizPage(t, ctx, "viz-contention")}
	c.waitReady()

	f := c.figures()
	for id, want := range map[string]string{"impl": "reference", "quantum": "5", "burst-rate": "8", "heavy-cost": "5", "impl-status": "Reference", "bound": "15"} {
		if f.text(id) != want {
			t.Errorf("opening settings: %s = %q, want %q", id, f.text(id), want)
		}
	}

	// Two of A's bursts (from 1 s and 11 s) and what they leave queued,
	// paused by the page itself at 21 s (and at most one frame's 2 s more),
	// whatever the machine's speed.
	c.set("speed", "20")
	c.pauseWhen("t >= 21 s", c.nowExpr()+" >= 21e9")
	t.Logf("paused at t = %.3f s", Eval[float64](t, ctx, c.nowExpr())/1e9)
	fifo, rr, drr := c.lane("fifo"), c.lane("rr"), c.lane("drr")
	t.Logf("FIFO: A's peak %.0f%%, out of order %v, worst gap %v (%s), p99 A %.0f ms, B %.0f ms, C %.0f ms",
		100*fifo.BurstPeak, fifo.OutOfOrder, fifo.WorstGap, fifo.WorstPair, fifo.P99["A"]/1e6, fifo.P99["B"]/1e6, fifo.P99["C"]/1e6)
	t.Logf("RR:   A's peak %.0f%%, out of order %v, worst gap %v (%s), p99 A %.0f ms, B %.0f ms, C %.0f ms",
		100*rr.BurstPeak, rr.OutOfOrder, rr.WorstGap, rr.WorstPair, rr.P99["A"]/1e6, rr.P99["B"]/1e6, rr.P99["C"]/1e6)
	t.Logf("DRR:  A's peak %.0f%%, out of order %v, worst gap %v (%s) against the bound %v, backlogged together %.1f s, p99 A %.0f ms, B %.0f ms, C %.0f ms",
		100*drr.BurstPeak, drr.OutOfOrder, drr.WorstGap, drr.WorstPair, drr.Bound, drr.JointNs/1e9, drr.P99["A"]/1e6, drr.P99["B"]/1e6, drr.P99["C"]/1e6)

	// Under contention DRR keeps every backlogged session's served cost
	// within 2 × quantum + the largest cost of every other's: the page
	// shows the worst pair, so every pair is below it.
	switch {
	case drr.Stopped:
		t.Fatal("the reference DRR lane stopped")
	case drr.Bound != 2*5+5:
		t.Errorf("bound %v, want 2 × 5 + 5", drr.Bound)
	case drr.JointNs < 1e9 || drr.WorstPair == "":
		t.Errorf("DRR: sessions backlogged together for %v ns (worst pair %q): there was no contention to judge", drr.JointNs, drr.WorstPair)
	case drr.WorstGap >= drr.Bound:
		t.Errorf("DRR: two backlogged sessions (%s) were served costs %v apart, not below the bound %v", drr.WorstPair, drr.WorstGap, drr.Bound)
	case drr.Gap != strconv.FormatFloat(drr.WorstGap, 'f', -1, 64) || !strings.HasPrefix(drr.Note, "below the bound 15"):
		t.Errorf("DRR's gap figure shows %q, %q; want %v, below the bound 15", drr.Gap, drr.Note, drr.WorstGap)
	}
	// The FIFO lets the burster take most of the engine, keeps arrival
	// order, and makes everyone wait behind the burst.
	if fifo.BurstPeak <= 0.5 {
		t.Errorf("FIFO: A's peak share %.0f%%, want most of the engine", 100*fifo.BurstPeak)
	}
	if fifo.OutOfOrder != 0 || fifo.WorstGap < fifo.Bound || !strings.HasPrefix(fifo.Note, "past the bound") {
		t.Errorf("FIFO: %v out of order, worst gap %v (%q); want 0, and past the bound %v", fifo.OutOfOrder, fifo.WorstGap, fifo.Note, fifo.Bound)
	}
	if drr.BurstPeak >= 0.5 || rr.BurstPeak >= 0.5 {
		t.Errorf("A's peak share: %.0f%% under RR, %.0f%% under DRR; want less than half", 100*rr.BurstPeak, 100*drr.BurstPeak)
	}
	// Fairness sequences commands out of arrival order; round robin, which
	// counts commands, lets B's cost-5 commands past the bound.
	if rr.OutOfOrder == 0 || drr.OutOfOrder == 0 {
		t.Errorf("out of arrival order: RR %v, DRR %v; want some under contention", rr.OutOfOrder, drr.OutOfOrder)
	}
	if rr.WorstGap < rr.Bound {
		t.Errorf("RR: worst gap %v, want it past the bound %v with costs 1 and 5", rr.WorstGap, rr.Bound)
	}
	for _, light := range []string{"C", "D", "E", "F"} {
		if !(drr.P99[light] > 0 && 10*drr.P99[light] < fifo.P99[light]) {
			t.Errorf("session %s: p99 %.1f ms under DRR, %.1f ms under the FIFO; want DRR's a tenth or less", light, drr.P99[light]/1e6, fifo.P99[light]/1e6)
		}
	}
	Eval[bool](t, ctx, `(document.querySelector(`+strconv.Quote(c.mount)+`).scrollIntoView({block: "start"}), true)`)
	ScreenshotViewport(t, ctx, "contention")
	Eval[bool](t, ctx, `(`+c.js("sessions")+`.scrollIntoView({block: "end"}), true)`)
	ScreenshotViewport(t, ctx, "contention-table")

	// Another quantum: a new run, a new bound, still kept.
	c.setPaused(false)
	c.set("quantum", "20")
	c.runTo(12e9)
	if d := c.lane("drr"); d.Bound != 2*20+5 || d.WorstGap >= d.Bound || d.JointNs == 0 {
		t.Errorf("quantum 20: DRR worst gap %v against bound %v (backlogged together %v ns); want it below 2 × 20 + 5", d.WorstGap, d.Bound, d.JointNs)
	}

	// Yours on the stub says it is not implemented; FIFO and RR go on.
	c.set("speed", yoursSpeed)
	c.set("impl", "yours")
	want := "not implemented"
	if assets.NoYours {
		want = "does not build"
	} else if !contentionStub(t) {
		want = ""
	}
	f = c.waitFor("Yours to say how it runs", `f["impl-status"].startsWith("Yours")`)
	if want == "" {
		t.Logf("impl-status = %q: exercises/fairqueue is not the stub", f.text("impl-status"))
	} else {
		if !strings.Contains(f.text("impl-status"), want) {
			t.Errorf("Yours: impl-status = %q, want it to say %q", f.text("impl-status"), want)
		}
		c.runTo(3e9)
		if d, ff := c.lane("drr"), c.lane("fifo"); !d.Stopped || ff.Stopped || ff.Served == 0 {
			t.Errorf("Yours on the stub: DRR stopped %v, FIFO stopped %v with %v served; want DRR stopped, FIFO running", d.Stopped, ff.Stopped, ff.Served)
		}
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// On a phone the contention lab fits the screen: only its table scrolls.
func TestWeek3ContentionPhone(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	requireWasm(t)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	Phone(t, ctx)
	Open(t, ctx, s, "/lessons/week-3", "viz-contention")
	c := contentionView{newVizPage(t, ctx, "viz-contention")}
	c.waitReady()
	c.set("speed", "20")
	c.runTo(4e9)
	if w := Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %dpx wide in a 390px window: it scrolls sideways", w)
	}
	Eval[bool](t, ctx, `(document.querySelector(`+strconv.Quote(c.mount)+`).scrollIntoView({block: "start"}), true)`)
	ScreenshotViewport(t, ctx, "phone")
}

// contentionStub reports whether exercises/fairqueue still panics "not
// implemented": then "Yours" must say so.
func contentionStub(t *testing.T) bool {
	t.Helper()
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "exercises", "fairqueue", "fairqueue.go"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(b), `is not implemented yet")`)
}
