package browsertest

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The failure-driven breaker's tests drive web/static/viz/breaker.js on
// the week 5 lesson, against the lab.wasm TestMain built, and check what
// the lesson promises from what the page shows: the half-open table (each
// period's calls let through and refused), the log of late results (with
// the state and generation before and after each, in data attributes) and
// the backend's load figure with the breaker on and off. Virtual time is
// moved by running at the top speed and polling until the run is done,
// never by sleeping.

// openCircuit opens the week 5 lesson, with the breaker's visualization
// alone on it (see onlyMount), and waits until it has drawn its first
// frame.
func openCircuit(t *testing.T) (*mountView, func() []string) {
	t.Helper()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	Open(t, ctx, s, "/lessons/week-5", "viz-breaker")
	onlyMount(t, ctx, "viz-breaker")
	m := &mountView{newVizPage(t, ctx, "viz-breaker")}
	m.waitReady()
	return m, errs
}

// circuitRun selects a scenario, runs it at the top speed to its end with
// the breaker shown, and returns the figures then.
func (m *mountView) circuitRun(scenario string) map[string]string {
	m.t.Helper()
	m.set("breaker", "on")
	// Slowly first, so that the new run is seen before it ends.
	m.set("speed", "0.25")
	if m.figures()["preset"] != scenario {
		m.set("preset", scenario)
	} else {
		m.click("restart", 1)
	}
	m.waitFor("the "+scenario+" run to start", `f.preset === `+strconv.Quote(scenario)+` && n("clock") < 9`)
	m.set("speed", "10")
	return m.waitFor("the "+scenario+" run to end", `f.preset === `+strconv.Quote(scenario)+` && f.clock === "t = 10.0 s" && f["impl-status"] === "Breaker: Reference"`)
}

// perSecond reads a figure written as a rate ("1,009/s").
func perSecond(t *testing.T, f map[string]string, id string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSuffix(f[id], "/s"), ",", ""), 64)
	if err != nil {
		t.Fatalf("%s = %q, want a rate such as 288/s", id, f[id])
	}
	return x
}

// circuitTip moves the pointer over the timeline at virtual time tNs, in
// the breaker's row or a client's lane ("client1", ...), and returns the
// tooltip's text then ("" if none shows).
func (m *mountView) circuitTip(tNs float64, row string) string {
	m.t.Helper()
	return Eval[string](m.t, m.ctx, `(() => {
		const c = `+m.js("timeline")+`, r = c.getBoundingClientRect(), w = r.width;
		const padL = w < 480 ? 54 : 74, padR = 10, plotW = w - padL - padR;
		const row = `+strconv.Quote(row)+`;
		const y = row === "breaker" ? 4 + 14 + 4 + 7 : 4 + 14 + 4 + 14 + 10 + (Number(row.slice(6)) - 1) * 12 + 6;
		c.dispatchEvent(new PointerEvent("pointermove", {clientX: r.left + padL + plotW * `+strconv.FormatFloat(tNs, 'f', -1, 64)+` / 10e9, clientY: r.top + y, bubbles: true}));
		const tip = document.querySelector(`+strconv.Quote(m.mount)+` + " .rbv-tip");
		const text = tip && !tip.hidden ? tip.textContent : "";
		c.dispatchEvent(new PointerEvent("pointerleave"));
		return text;
	})()`)
}

// halfOpenRow is one row of the half-open table.
type halfOpenRow struct {
	At               string
	Probes, Refused  int
	Ended            string
	FlaggedOnThePage bool
}

func (m *mountView) halfOpenRows() []halfOpenRow {
	m.t.Helper()
	rows := Eval[[]map[string]string](m.t, m.ctx, `Array.from(`+m.js("halfopen-table")+`.rows).map(r => ({
		at: r.cells[0].textContent, probes: r.cells[1].textContent, refused: r.cells[2].textContent,
		ended: r.cells[3].textContent, hot: String(r.cells[1].classList.contains("rbv-hot")),
	}))`)
	out := make([]halfOpenRow, len(rows))
	for i, r := range rows {
		p, err1 := strconv.Atoi(r["probes"])
		q, err2 := strconv.Atoi(r["refused"])
		if err1 != nil || err2 != nil {
			m.t.Fatalf("half-open row %d: let through %q, refused %q; want numbers", i, r["probes"], r["refused"])
		}
		out[i] = halfOpenRow{At: r["at"], Probes: p, Refused: q, Ended: r["ended"], FlaggedOnThePage: r["hot"] == "true"}
	}
	return out
}

// logLine is one line of the log of state changes and late results.
type logLine struct{ Kind, At, Before, After, Changed, Text string }

func (m *mountView) circuitLog() []logLine {
	m.t.Helper()
	rows := Eval[[]map[string]string](m.t, m.ctx, `Array.from(`+m.js("log")+`.querySelectorAll("li")).reverse().map(li => ({
		kind: li.dataset.kind, at: li.dataset.at, before: li.dataset.before, after: li.dataset.after,
		changed: li.dataset.changed, text: li.textContent,
	}))`)
	out := make([]logLine, len(rows))
	for i, r := range rows {
		out[i] = logLine{r["kind"], r["at"], r["before"], r["after"], r["changed"], r["text"]}
	}
	return out
}

// checkProbes wants every half-open period to let through at most the
// configured probes, exactly that many in a period that refused calls
// (more callers than probes), and at least one such period.
func checkProbes(t *testing.T, m *mountView, f map[string]string, scenario string) {
	t.Helper()
	probes, err := strconv.Atoi(f["probes-config"])
	if err != nil || probes < 1 {
		t.Fatalf("probes-config = %q, want the configured probes", f["probes-config"])
	}
	rows := m.halfOpenRows()
	crowded := 0
	for i, r := range rows {
		if r.Probes > probes || (r.Refused > 0 && r.Probes != probes) {
			t.Errorf("%s: half-open period %d (at %s): %d let through, %d refused; want exactly %d let through when calls were refused",
				scenario, i, r.At, r.Probes, r.Refused, probes)
		}
		if r.FlaggedOnThePage {
			t.Errorf("%s: half-open period %d is flagged on the page", scenario, i)
		}
		if r.Refused > 0 {
			crowded++
		}
	}
	if crowded == 0 {
		t.Errorf("%s: no half-open period with more callers than probes: %+v", scenario, rows)
	}
	t.Logf("%s: %d half-open periods, %d refused calls beyond the %d probes; rows %+v", scenario, len(rows), crowded, probes, rows)
}

// checkLate wants late results, each logged with the same state and
// generation after it as before, as many as the figure says, and at least
// one that arrived while the breaker was open.
func checkLate(t *testing.T, m *mountView, f map[string]string, scenario string) {
	t.Helper()
	late := 0
	whileOpen := 0
	for _, l := range m.circuitLog() {
		if l.Kind != "late" {
			continue
		}
		late++
		if l.Before == "" || l.Before != l.After || l.Changed != "false" {
			t.Errorf("%s: late result at %s ns: before %q, after %q (changed %s): %s", scenario, l.At, l.Before, l.After, l.Changed, l.Text)
		}
		if strings.HasPrefix(l.Before, "open ") {
			whileOpen++
		}
	}
	if n := count(t, f, "late"); late == 0 || float64(late) != n {
		t.Errorf("%s: %d late results in the log, the figure says %v; want the same, above 0", scenario, late, f["late"])
	}
	if whileOpen == 0 {
		t.Errorf("%s: no late result arrived while the breaker was open", scenario)
	}
	if strings.Contains(f["note"], "must neither") {
		t.Errorf("%s: note = %q", scenario, f["note"])
	}
	t.Logf("%s: %d late results, %d of them while open, all ignored", scenario, late, whileOpen)
}

func TestWeek5BreakerProbesAndLateResults(t *testing.T) {
	t.Parallel()
	m, errs := openCircuit(t)
	f := m.waitFor("the lesson's preset", `f["impl-status"] === "Breaker: Reference"`)
	for id, want := range map[string]string{"preset": "outage", "impl": "reference", "breaker": "on"} {
		if f[id] != want {
			t.Errorf("opening settings: %s = %q, want %q", id, f[id], want)
		}
	}
	for _, scenario := range []string{"outage", "slow-calls"} {
		f = m.circuitRun(scenario)
		checkProbes(t, m, f, scenario)
		checkLate(t, m, f, scenario)
		if f["state"] != "closed" {
			t.Errorf("%s: the breaker ends %q, want closed once the backend is back", scenario, f["state"])
		}
		if scenario == "outage" {
			// The breaker's row at 2.5 s, a moment into the outage.
			tip := m.circuitTip(2.5e9, "breaker")
			if !strings.HasPrefix(tip, "open from 2.0") {
				t.Errorf("the tip over the breaker's row at 2.5 s = %q, want it open since about 2 s", tip)
			}
			t.Logf("tip at 2.5 s: %s; over client 1 at 3.06 s: %s", tip, m.circuitTip(3.06e9, "client1"))
		}
	}
	m.scrollIntoView()
	ScreenshotViewport(t, m.ctx, "slow-calls")
	Eval[bool](t, m.ctx, `(`+m.js("load-chart")+`.scrollIntoView({block: "start"}), true)`)
	ScreenshotViewport(t, m.ctx, "slow-calls-details")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %v", e)
	}
}

func TestWeek5BreakerRetryStorm(t *testing.T) {
	t.Parallel()
	m, errs := openCircuit(t)
	for _, scenario := range []string{"outage", "blip"} {
		on := m.circuitRun(scenario)
		m.set("breaker", "off")
		off := m.waitFor("the run without a breaker", `f.state === "none" && f["side-title"].startsWith("No breaker")`)
		loadOn, loadOff := perSecond(t, on, "load-down"), perSecond(t, off, "load-down")
		if !(loadOff > loadOn) {
			t.Errorf("%s: the backend's load while down: %v/s with the breaker off, %v/s with it on; want more with it off", scenario, loadOff, loadOn)
		}
		if count(t, on, "refused") == 0 || off["refused"] != "0" {
			t.Errorf("%s: refused %s with the breaker, %s without; want some, and 0", scenario, on["refused"], off["refused"])
		}
		if !strings.Contains(off["verdict"], "attempts a second through the breaker") {
			t.Errorf("%s: verdict = %q", scenario, off["verdict"])
		}
		t.Logf("%s: backend load while down %v/s with the breaker, %v/s without", scenario, loadOn, loadOff)
		if scenario == "outage" {
			m.scrollIntoView()
			ScreenshotViewport(t, m.ctx, "breaker-off")
		}
	}

	m.set("breaker", "on")
	m.set("speed", yoursSpeed)
	m.set("impl", "yours")
	if stillAStub(t, "exercises/breaker/breaker.go") {
		f := m.waitFor("Yours to say it is not implemented", `f["impl-status"].includes("Yours: not implemented yet")`)
		t.Logf("Yours: %s", f["impl-status"])
		m.set("breaker", "off")
		f = m.waitFor("the run without a breaker to go on", `n("clock") >= 3 && f.state === "none"`)
		if perSecond(t, f, "load-down") <= 0 {
			t.Errorf("with Yours stopped, the run without a breaker must go on: load-down = %q", f["load-down"])
		}
	} else {
		f := m.waitFor("Yours to run", `f["impl-status"].startsWith("Breaker: Yours")`)
		t.Logf("Yours: %s", f["impl-status"])
	}
	Phone(t, m.ctx)
	m.set("breaker", "on")
	m.scrollIntoView()
	ScreenshotViewport(t, m.ctx, "phone")
	Eval[bool](t, m.ctx, `(`+m.js("timeline")+`.scrollIntoView({block: "start"}), true)`)
	ScreenshotViewport(t, m.ctx, "phone-timeline")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %v", e)
	}
}

// TestWeek5BreakerShowsBuggyBreakers runs known-buggy breakers of the
// grader's fixtures as Yours (lab.wasm built with the fixture in place of
// exercises/breaker) and wants the page to show their mistakes: late
// results that change the breaker without generations, and half-open
// periods that let more than the probes through without a limit.
func TestWeek5BreakerShowsBuggyBreakers(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	requireWasm(t)
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	static := map[string]string{}
	for _, fixture := range []string{"no-generation", "probes-unlimited"} {
		static[fixture] = fixtureWasm(t, root, "breaker", filepath.Join(root, "grader", "testdata", "fixtures", "breaker", fixture))
	}
	// Its browser comes after the slow work (building lab.wasm), so that
	// its timeout bounds the use of the browser alone.
	ctx := NewBrowser(t, BrowserOptions{Timeout: 4 * time.Minute})
	run := func(fixture, scenario string) *mountView {
		t.Helper()
		s := StartServer(t, ServerOptions{StaticDir: static[fixture]})
		Open(t, ctx, s, "/lessons/week-5", "viz-breaker")
		onlyMount(t, ctx, "viz-breaker")
		m := &mountView{newVizPage(t, ctx, "viz-breaker")}
		m.waitReady()
		m.set("speed", "0.25")
		m.set("impl", "yours")
		m.set("preset", scenario)
		m.waitFor("Yours to start", `f["impl-status"] === "Breaker: Yours" && n("clock") < 9`)
		m.set("speed", yoursSpeed)
		m.waitFor(fixture+" to run "+scenario, `f.clock === "t = 10.0 s"`)
		return m
	}

	m := run("no-generation", "slow-calls")
	f := m.figures()
	changed := 0
	for _, l := range m.circuitLog() {
		if l.Kind == "late" && l.Changed == "true" {
			changed++
			if l.Before == l.After {
				t.Errorf("no-generation: a late result marked changed with the same state before and after: %+v", l)
			}
		}
	}
	if changed == 0 || !strings.Contains(f["note"], "must neither close nor reopen it") {
		t.Errorf("no-generation: %d late results shown as changing the breaker, note %q; want some, and the note to say so", changed, f["note"])
	}
	t.Logf("no-generation: %d late results changed the breaker; late figure %s", changed, f["late"])
	m.scrollIntoView()
	ScreenshotViewport(t, ctx, "no-generation")

	m = run("probes-unlimited", "outage")
	probes, _ := strconv.Atoi(m.figures()["probes-config"])
	over := 0
	for _, r := range m.halfOpenRows() {
		if r.Probes > probes {
			over++
			if !r.FlaggedOnThePage {
				t.Errorf("probes-unlimited: half-open at %s let %d through, not flagged", r.At, r.Probes)
			}
		}
	}
	if over == 0 {
		t.Errorf("probes-unlimited: no half-open period let more than %d through: %+v", probes, m.halfOpenRows())
	}
	t.Logf("probes-unlimited: %d half-open periods let more than %d calls through", over, probes)
}
