package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The week 4 tests drive web/static/viz/governor.js and gradient2.js on the
// week 4 lesson, against the lab.wasm TestMain built, and check the
// behaviours the lesson promises from what the page shows: the figures,
// the movement log (one line per window that moved, with its numbers in
// data attributes) and the Gradient2 table of load steps. Virtual time is
// moved by Step (the governor, one window a click) or by running fast and
// polling until a condition holds, never by sleeping; a window's outcome
// does not depend on frame timing.

// mountView is one visualization on the week 4 page: a vizPage whose
// figures are read the week 4 way (figsJS), as a plain map.
type mountView struct{ *vizPage }

// openWeek4 opens the week 4 lesson, with the visualization whose mount has
// data-testid testid alone on it (see onlyMount), and waits until it has
// drawn its first frame.
func openWeek4(t *testing.T, ctx context.Context, s *Server, testid string) *mountView {
	t.Helper()
	Open(t, ctx, s, "/lessons/week-4", testid)
	onlyMount(t, ctx, testid)
	m := &mountView{newVizPage(t, ctx, testid)}
	m.waitReady()
	return m
}

// figsJS binds f, every data-testid of the mount with its text (or a
// control's value), and n, the first number in a figure ("12.5%" is 12.5,
// "t = 3.0 s" is 3).
const figsJS = `
	const root = document.querySelector(MOUNT);
	if (!root) return null;
	const f = {};
	for (const e of root.querySelectorAll("[data-testid]")) {
		const id = e.dataset.testid;
		if (e.tagName === "INPUT" || e.tagName === "SELECT") f[id] = e.value;
		else if (!["OL", "TABLE", "TR"].includes(e.tagName)) f[id] = e.textContent.replace(/\s+/g, " ").trim();
	}
	const n = id => { const m = (f[id] || "").match(/-?\d+(\.\d+)?/); return m ? parseFloat(m[0]) : NaN; };
`

func (m *mountView) figsExpr(cond string) string {
	return "(() => {" + strings.Replace(figsJS, "MOUNT", strconv.Quote(m.mount), 1) + "return (" + cond + ") ? f : null; })()"
}

func (m *mountView) dump() string {
	v, err := chromedp.Run(m.ctx, chromedp.Evaluate[map[string]string](m.figsExpr("true")))
	if err != nil {
		return err.Error()
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// waitFor polls the figures until the JavaScript condition cond, over f
// and n, holds, and returns them as they were then. A run of Yours that the
// page's watchdog stops meanwhile is restarted (see pollFigures).
func (m *mountView) waitFor(what, cond string) map[string]string {
	m.t.Helper()
	return pollFigures(m.t, m.ctx, m.mount, what, cond, m.figsExpr, m.dump, watchdogRestarts)
}

// movement is one line of the governor's movement log, as the page
// writes it.
type movement struct {
	Window   int
	Action   string  // "double", "back off", "recover", "probe"
	Offer    float64 // during the window
	Next     float64 // the decision's offer
	LastBad  float64 // the memory after the window
	Capacity float64 // the target's, during the window
	Frac     float64 // the window's attempt-failure fraction
	Cleared  bool    // the line says the memory cleared
	Reason   string
}

// movements reads the movement log, oldest line first.
func (m *mountView) movements() []movement {
	m.t.Helper()
	rows := Eval[[]map[string]string](m.t, m.ctx, `Array.from(`+m.js("log")+`.querySelectorAll("li")).reverse().map(li => ({
		window: li.dataset.window, action: li.dataset.action, offer: li.dataset.offer, next: li.dataset.next,
		lastBad: li.dataset.lastBad, capacity: li.dataset.capacity, frac: li.dataset.frac,
		shown: li.querySelector(".rgv-line-act").textContent, reason: li.querySelector(".rgv-line-why").textContent,
	}))`)
	out := make([]movement, len(rows))
	for i, r := range rows {
		f := func(k string) float64 {
			x, err := strconv.ParseFloat(r[k], 64)
			if err != nil {
				m.t.Fatalf("log line %d: %s = %q, want a number", i, k, r[k])
			}
			return x
		}
		out[i] = movement{
			Window: int(f("window")), Action: r["action"], Offer: f("offer"), Next: f("next"),
			LastBad: f("lastBad"), Capacity: f("capacity"), Frac: f("frac"),
			Cleared: r["shown"] == "memory cleared", Reason: r["reason"],
		}
	}
	return out
}

// runTo selects a target (and the governor on or off) and runs exactly
// windows windows of the new run, by Step with the run paused, and returns
// the figures after the last: what they show does not depend on how fast
// the page runs (at the top speed, 60 windows a second, a test that polls
// would read a later window on a slow machine, and the targets change
// over time).
func (m *mountView) runTo(target, mode string, windows int) map[string]string {
	m.t.Helper()
	m.setPaused(true)
	m.set("mode", mode)
	m.set("preset", target)
	m.click("step", windows)
	return m.waitFor(fmt.Sprintf("%d windows against %s", windows, target), `n("window") === `+strconv.Itoa(windows))
}

func (m *mountView) scrollIntoView() {
	m.t.Helper()
	Eval[bool](m.t, m.ctx, `(document.querySelector(`+strconv.Quote(m.mount)+`).scrollIntoView({block: "start"}), true)`)
}

func leq(a, b float64) bool { return a <= b+1e-9*math.Abs(b) }

func TestWeek4Governor(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 4 * time.Minute})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	g := openWeek4(t, ctx, s, "viz-governor")

	f := g.waitFor("the lesson's preset", `f["impl-status"] === "Reference"`)
	for id, want := range map[string]string{"preset": "healthier", "impl": "reference", "mode": "governed", "tries": "3"} {
		if f[id] != want {
			t.Errorf("opening settings: %s = %q, want %q", id, f[id], want)
		}
	}
	floor, _ := strconv.ParseFloat(f["floor"], 64)
	ceiling, _ := strconv.ParseFloat(f["ceiling"], 64)
	if floor <= 0 || ceiling < floor {
		t.Fatalf("floor %q, ceiling %q: want numbers, floor <= ceiling", f["floor"], f["ceiling"])
	}

	// A robust target is reached from the floor in log2(ceiling/floor)
	// clean windows, without a single failed attempt.
	t.Run("robust", func(t *testing.T) {
		g.t = t
		want := int(math.Ceil(math.Log2(ceiling / floor)))
		f := g.runTo("robust", "governed", want+8)
		log := g.movements()
		reached := -1
		for _, l := range log {
			if l.Frac != 0 || l.Action != "double" {
				t.Errorf("window %d: %s at attempt failure %v (%s); want clean doublings only", l.Window, l.Action, l.Frac, l.Reason)
			}
			if reached < 0 && l.Offer == ceiling {
				reached = l.Window
			}
		}
		if reached != want {
			t.Errorf("the offer first reached the ceiling %v in window %d, want window %d = ceil(log2(%v/%v))", ceiling, reached, want, ceiling, floor)
		}
		if f["attempt-failure"] != "0.0%" || f["ok-percent"] != "100.0%" || f["offer"] != f["ceiling"] || f["last-bad"] != "none" {
			t.Errorf("robust after %s windows: offer %s, attempt failure %s, ok %s, last_bad %s; want the ceiling, 0.0%%, 100.0%%, none",
				f["window"], f["offer"], f["attempt-failure"], f["ok-percent"], f["last-bad"])
		}
		t.Logf("robust: the ceiling %v in window %d, log2(%v/%v) = %.2f", ceiling, reached, ceiling, floor, math.Log2(ceiling/floor))
	})

	// Against a fragile target the offer overshoots its capacity once at
	// most, by slow start's one doubling, and after the first back-off
	// never runs more than a probe step past it; climbing back, it never
	// multiplies past 75% of last_bad.
	t.Run("fragile", func(t *testing.T) {
		g.t = t
		g.runTo("fragile", "governed", 60)
		log := g.movements()
		backedOff := false
		worst := 0.0
		for _, l := range log {
			for _, offer := range []float64{l.Offer, l.Next} {
				if offer >= 2*l.Capacity {
					t.Errorf("window %d: offer %v against capacity %v", l.Window, offer, l.Capacity)
				}
				if backedOff {
					worst = max(worst, offer/l.Capacity)
					if offer > 1.1*l.Capacity {
						t.Errorf("window %d: offer %v after a back-off, more than 1.1 × capacity %v", l.Window, offer, l.Capacity)
					}
				}
			}
			backedOff = backedOff || l.Action == "back off"
		}
		if !backedOff {
			t.Fatalf("no back-off in %d movements against the fragile target", len(log))
		}
		checkNoMultiplicativeClimb(t, log)
		t.Logf("fragile: %d movements; after the first back-off the offer reached %.3f × capacity", len(log), worst)
		g.scrollIntoView()
		ScreenshotViewport(t, ctx, "fragile")
	})

	// After the target gets healthier the memory clears, and the climb
	// doubles again.
	t.Run("healthier", func(t *testing.T) {
		g.t = t
		g.runTo("healthier", "governed", 45)
		log := g.movements()
		checkNoMultiplicativeClimb(t, log)
		cleared := -1
		for i, l := range log {
			if l.Cleared {
				cleared = i
				break
			}
		}
		if cleared < 0 {
			t.Fatalf("the memory never cleared in %d movements", len(log))
		}
		c := log[cleared]
		if c.Window < 20 || c.LastBad != 0 || !strings.Contains(c.Reason, "memory cleared") {
			t.Errorf("memory cleared at window %d (last_bad %v, %q); want after the caches warm at 20 s, to none, said in the line", c.Window, c.LastBad, c.Reason)
		}
		if cleared+1 >= len(log) {
			t.Fatalf("no movement after the memory cleared at window %d", c.Window)
		}
		next := log[cleared+1]
		if next.Window != c.Window+1 || next.Action != "double" || next.Next != math.Min(2*next.Offer, ceiling) {
			t.Errorf("after the clear at window %d: window %d %s %v -> %v; want the next window to double", c.Window, next.Window, next.Action, next.Offer, next.Next)
		}
		t.Logf("healthier: memory cleared at window %d (%s), then %s", c.Window, c.Reason, next.Reason)
		g.scrollIntoView()
		ScreenshotViewport(t, ctx, "healthier")
	})

	// Without a governor the client offers its ceiling to a target that
	// serves less: the retries keep the dashboard's ok % green while the
	// attempt plane shows the saturation.
	t.Run("retries-hide-saturation", func(t *testing.T) {
		g.t = t
		f := g.runTo("degrades", "fixed", 10)
		if len(g.movements()) != 0 {
			t.Errorf("without a governor the log has movements")
		}
		fail, ok := g.percent(f, "attempt-failure"), g.percent(f, "ok-percent")
		if fail < 15 || ok < 95 || f["offer"] != f["ceiling"] {
			t.Errorf("governor off: offer %s, attempt failure %v%%, ok %v%%; want the ceiling, at least 15%% and 95%%", f["offer"], fail, ok)
		}
		green := Eval[bool](t, ctx, g.js("ok-percent")+`.parentElement.classList.contains("rgv-green")`)
		hot := Eval[bool](t, ctx, g.js("attempt-failure")+`.parentElement.classList.contains("rgv-hot")`)
		if !green || !hot {
			t.Errorf("ok %% shown green = %v, attempt failure shown hot = %v; want both", green, hot)
		}
		t.Logf("governor off: attempt failure %v%%, requests ok %v%% (%s)", fail, ok, f["impl-status"])
		g.scrollIntoView()
		ScreenshotViewport(t, ctx, "governor-off")
	})

	// Yours, on the exercise stubs, says plainly that it is not implemented.
	t.Run("yours", func(t *testing.T) {
		g.t = t
		g.set("mode", "governed")
		g.set("impl", "yours")
		want := "not implemented"
		if assets.NoYours {
			want = "does not build"
		}
		f := g.waitFor("Yours to say why it stopped", `f["impl-status"].startsWith("Yours")`)
		if !strings.Contains(f["impl-status"], want) {
			t.Skipf("impl-status = %q: exercises/governor is not the stub (want %q on a stub)", f["impl-status"], want)
		}
		if f["window"] != "0" || f["viz-ready"] != "stopped" {
			t.Errorf("Yours on the stub: window %s, status dot %q; want 0 and stopped", f["window"], f["viz-ready"])
		}
		t.Logf("Yours: %s", f["impl-status"])
		g.set("impl", "reference")
	})

	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// percent reads a figure such as "12.5%" as 12.5.
func (m *mountView) percent(f map[string]string, id string) float64 {
	m.t.Helper()
	x, err := strconv.ParseFloat(strings.TrimSuffix(f[id], "%"), 64)
	if err != nil || !strings.HasSuffix(f[id], "%") {
		m.t.Fatalf("%s = %q, want a percentage", id, f[id])
	}
	return x
}

// checkNoMultiplicativeClimb checks the movement log: once a back-off has
// set last_bad, a clean window climbs x1.5 only up to 75% of it, then by
// max(1, 2% of it) at a time.
func checkNoMultiplicativeClimb(t *testing.T, log []movement) {
	t.Helper()
	memory := 0.0 // last_bad entering the window: holds do not change it
	for _, l := range log {
		if memory > 0 && (l.Action == "recover" || l.Action == "probe") {
			limit := max(min(1.5*l.Offer, 0.75*memory), l.Offer+max(1, 0.02*memory))
			if !leq(l.Next, limit) {
				t.Errorf("window %d: %s %v -> %v with last_bad %v; want at most %v", l.Window, l.Action, l.Offer, l.Next, memory, limit)
			}
		}
		memory = l.LastBad
	}
}

func TestWeek4Gradient2(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	v := openWeek4(t, ctx, s, "viz-gradient2")

	f := v.waitFor("the first samples", `f["impl-status"] === "Reference" && f["rtt-long"].endsWith("ms")`)
	t.Logf("at %s: limit %s, short RTT %s, long RTT %s", f["clock"], f["limit"], f["rtt-short"], f["rtt-long"])

	// Through the four load steps: 0.5, 1.3, 0.5 and 2 times what the
	// server can do.
	v.set("speed", "20")
	v.waitFor("four load steps", `n("clock") >= 40.2`)
	rows := Eval[[]map[string]string](t, ctx, `Array.from(`+v.js("steps")+`.querySelectorAll("tbody tr")).map(tr => ({...tr.dataset}))`)
	type step struct {
		load, min, max, rejected float64
	}
	var steps []step
	for _, r := range rows {
		var st step
		for k, p := range map[string]*float64{"load": &st.load, "limitMin": &st.min, "limitMax": &st.max, "rejected": &st.rejected} {
			x, err := strconv.ParseFloat(r[k], 64)
			if err != nil {
				t.Fatalf("step row %v: %s is not a number", r, k)
			}
			*p = x
		}
		steps = append(steps, st)
	}
	if len(steps) < 4 {
		t.Fatalf("%d rows in the steps table after 40 s, want at least 4: %v", len(steps), rows)
	}
	calm, over, calm2, heavy := steps[0], steps[1], steps[2], steps[3]
	t.Logf("steps: %+v", steps[:4])
	switch {
	case calm.load != 0.5 || over.load != 1.3 || calm2.load != 0.5 || heavy.load != 2:
		t.Errorf("loads %v %v %v %v, want 0.5 1.3 0.5 2", calm.load, over.load, calm2.load, heavy.load)
	case calm.rejected != 0 || calm2.rejected != 0:
		t.Errorf("rejected %v and %v at half load, want none", calm.rejected, calm2.rejected)
	case over.min >= calm.max:
		t.Errorf("at 1.3x the limit went no lower than %v, want it below the calm step's %v", over.min, calm.max)
	case heavy.min >= calm2.max || heavy.rejected < 0.3:
		t.Errorf("at 2x: limit down to %v (from %v), %.0f%% rejected; want it lower, and at least 30%% turned away", heavy.min, calm2.max, 100*heavy.rejected)
	case calm.min == calm.max && over.min == over.max:
		t.Error("the limit never moved")
	}
	f = v.figures()
	for _, id := range []string{"rtt-short", "rtt-long"} {
		if !strings.HasSuffix(f[id], " ms") {
			t.Errorf("%s = %q, want milliseconds", id, f[id])
		}
	}
	if _, err := strconv.Atoi(f["limit"]); err != nil {
		t.Errorf("limit = %q, want a whole number", f["limit"])
	}
	v.scrollIntoView()
	ScreenshotViewport(t, ctx, "gradient2")

	v.set("impl", "yours")
	want := "not implemented"
	if assets.NoYours {
		want = "does not build"
	}
	f = v.waitFor("Yours to say why it stopped", `f["impl-status"].startsWith("Yours")`)
	if !strings.Contains(f["impl-status"], want) {
		t.Logf("impl-status = %q: exercises/gradient2 is not the stub", f["impl-status"])
	} else if f["viz-ready"] != "stopped" {
		t.Errorf("Yours on the stub: status dot %q, want stopped", f["viz-ready"])
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

func (m *mountView) figures() map[string]string {
	m.t.Helper()
	return Eval[map[string]string](m.t, m.ctx, m.figsExpr("true"))
}

// The week 4 page on a desktop and on a phone: both visualizations run,
// nothing scrolls sideways.
func TestWeek4Page(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	for _, phone := range []bool{false, true} {
		name, width := "desktop", 1280
		if phone {
			name, width = "phone", 390
			Phone(t, ctx)
		}
		Open(t, ctx, s, "/lessons/week-4", "viz-governor")
		g := &mountView{newVizPage(t, ctx, "viz-governor")}
		g.waitReady()
		newVizPage(t, ctx, "viz-gradient2").waitReady()
		g.waitFor("a few windows", `n("window") >= 12`)
		if w := Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > width {
			t.Errorf("%s: the page is %dpx wide in a %dpx window: it scrolls sideways", name, w, width)
		}
		Screenshot(t, ctx, name)
		g.scrollIntoView()
		ScreenshotViewport(t, ctx, name+"-governor")
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
