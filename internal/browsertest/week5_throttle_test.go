package browsertest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The week 5 operator's console tests drive web/static/viz/throttle.js on
// the week 5 lesson, against the lab.wasm TestMain built, and check what
// the lesson promises from what the page shows: the decisions tables, the
// periods table and the log's data attributes. Virtual time is moved by
// running at the top speed and polling until the run is done, never by
// sleeping. The presets' scripts and TTLs (lab/throttle's presets.go) are
// the scenario the test sets up; everything else is read from the page.

// openWeek5 opens the week 5 lesson, with the visualization whose mount has
// data-testid testid alone on it (see onlyMount), and waits until it has
// drawn its first frame.
func openWeek5(t *testing.T, ctx context.Context, s *Server, testid string) *mountView {
	t.Helper()
	Open(t, ctx, s, "/lessons/week-5", testid)
	onlyMount(t, ctx, testid)
	m := &mountView{newVizPage(t, ctx, testid)}
	m.waitReady()
	return m
}

// consoleRow is one row of a table or line of the log, by its data
// attributes.
type consoleRow map[string]string

func (r consoleRow) num(t *testing.T, k string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(r[k], 64)
	if err != nil {
		t.Fatalf("%v: %s = %q, want a number", r, k, r[k])
	}
	return x
}

// rows returns the dataset of every element matching css inside the mount.
func (m *mountView) rows(css string) []consoleRow {
	m.t.Helper()
	got := Eval[[]map[string]string](m.t, m.ctx, `Array.from(document.querySelector(`+strconv.Quote(m.mount)+`).querySelectorAll(`+strconv.Quote(css)+`)).map(e => ({...e.dataset}))`)
	out := make([]consoleRow, len(got))
	for i, r := range got {
		out[i] = r
	}
	return out
}

// runPreset selects a preset, runs it at the top speed to its end and
// returns the figures then.
func (m *mountView) runPreset(preset, end string) map[string]string {
	m.t.Helper()
	m.set("preset", preset)
	m.set("speed", "10")
	return m.waitFor(preset+" to end", `f["impl-status"] === "Gate: Reference" && f.clock === "t = `+end+`" && f["viz-ready"] === "done"`)
}

// checkAttributed wants every refusal on the page attributed to the pause,
// the degraded cap or the rate limit, and nothing accepted while Paused.
func checkAttributed(t *testing.T, f map[string]string) {
	t.Helper()
	for _, row := range []string{"state-normal", "state-degraded", "state-paused", "level-low", "level-normal", "level-high"} {
		if f[row+"-other"] != "0" {
			t.Errorf("%s-other = %q: refusals by no rule", row, f[row+"-other"])
		}
	}
	if f["state-paused-accepted"] != "0" {
		t.Errorf("accepted while Paused: %s", f["state-paused-accepted"])
	}
	if f["state-paused-rate"] != "0" || f["state-paused-degraded"] != "0" {
		t.Errorf("while Paused the pause must refuse first: %s by the rate limit, %s by the cap", f["state-paused-rate"], f["state-paused-degraded"])
	}
}

func TestWeek5ConsoleBusyDay(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	m := openWeek5(t, ctx, s, "viz-console")

	f := m.runPreset("busy-day", "22.0 s")
	checkAttributed(t, f)
	if count(t, f, "state-paused-paused") == 0 || count(t, f, "state-paused-accepted") != 0 {
		t.Errorf("while Paused: %s refused by the pause, %s accepted; want some and none", f["state-paused-paused"], f["state-paused-accepted"])
	}
	// Congestion is not a gate: while High, the refusals in Normal come
	// from the rate limit, at the MaxCalls the keeper moved.
	if count(t, f, "level-high-rate") == 0 {
		t.Fatalf("no refusal by the rate limit while High:\n%s", m.dump())
	}
	var moved, of float64
	if _, err := fmt.Sscanf(f["high-moved"], "%g of %g", &moved, &of); err != nil || moved != of || of == 0 {
		t.Errorf("high-moved = %q, want every rate-limit refusal while High at a MaxCalls congestion moved", f["high-moved"])
	}
	highLines := 0
	for _, li := range m.rows(`[data-testid="log"] li[data-kind="write"]`) {
		limit, used, max := li.num(t, "limit"), li.num(t, "used"), li.num(t, "max")
		if li["outcome"] == "rate" && used < limit {
			t.Errorf("log %v: refused by the rate limit with %v of %v used", li, used, limit)
		}
		if li["level"] == "high" && li["state"] == "normal" && li["outcome"] != "rate" {
			t.Errorf("log %v: a refusal while High and Normal that is not the rate limit's", li)
		}
		if li["level"] == "high" && li["outcome"] == "rate" && li["addr"] == "3" {
			highLines++
			if limit != max || max >= 8 {
				t.Errorf("log %v: the heavy address refused while High at limit %v, MaxCalls %v; want the global MaxCalls, cut below 8", li, limit, max)
			}
		}
	}
	if highLines == 0 {
		t.Errorf("no line of the log shows the heavy address refused by the rate limit while High:\n%v", m.rows(`[data-testid="log"] li`))
	}
	// The pause ended by the operator at 12 s; the degraded spell from
	// 15 s by its TTL of 4 s, at exactly 19 s.
	periods := m.rows(`[data-testid="periods"] tbody tr`)
	if len(periods) != 2 {
		t.Fatalf("periods %v, want the pause and the degraded spell", periods)
	}
	p, d := periods[0], periods[1]
	if p["state"] != "paused" || p.num(t, "start") != 10e9 || p.num(t, "end") != 12e9 || p["ended"] != "operator" {
		t.Errorf("first period %v, want paused from 10 s to 12 s, ended by the operator", p)
	}
	if d["state"] != "degraded" || d.num(t, "start") != 15e9 || d["ended"] != "ttl" ||
		d.num(t, "end") != d.num(t, "start")+4e9 || d.num(t, "recoverAt") != d.num(t, "end") || d.num(t, "lastSeen") != d.num(t, "end")-1 {
		t.Errorf("second period %v, want degraded from 15 s, ended by its TTL at exactly 19 s, still degraded 1 ns before", d)
	}
	if !strings.HasPrefix(f["status-state"], "Normal") || !strings.Contains(f["status-max"], "per 1 s") {
		t.Errorf("dashboard: state %q, MaxCalls %q; want Normal after the recovery, and the global limit", f["status-state"], f["status-max"])
	}
	if !strings.Contains(f["verdict"], "congestion refused none by itself") {
		t.Errorf("verdict = %q", f["verdict"])
	}
	t.Logf("busy day: by state %s/%s/%s accepted; paused refused %s; while High %s by the rate limit (%s at a moved MaxCalls); status %s, %s, %s",
		f["state-normal-accepted"], f["state-degraded-accepted"], f["state-paused-accepted"], f["state-paused-paused"],
		f["level-high-rate"], f["high-moved"], f["status-state"], f["status-max"], f["status-level"])
	m.scrollIntoView()
	ScreenshotViewport(t, ctx, "busy-day")
	screenshotMount(t, ctx, m, "busy-day-mount")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %v", e)
	}
}

func TestWeek5ConsolePresets(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	m := openWeek5(t, ctx, s, "viz-console")

	// The seed's second example: the whitelisted issuer (the second
	// address) is never rate limited, and is refused at the degraded cap.
	f := m.runPreset("whitelisted-degraded", "10.0 s")
	checkAttributed(t, f)
	if count(t, f, "addr1-degraded") == 0 || count(t, f, "addr1-rate") != 0 || count(t, f, "white-capped") == 0 {
		t.Errorf("whitelisted issuer: %s refused at the cap, %s by the rate limit; want some and none", f["addr1-degraded"], f["addr1-rate"])
	}
	t.Logf("whitelisted while degraded: accepted %s, at the cap %s", f["addr1-accepted"], f["addr1-degraded"])

	// The seed's first example: Degraded while Low, the cap refuses.
	f = m.runPreset("degraded-low", "14.0 s")
	checkAttributed(t, f)
	if count(t, f, "level-low-degraded") == 0 {
		t.Errorf("no refusal by the degraded cap while congestion is Low:\n%s", m.dump())
	}
	screenshotMount(t, ctx, m, "degraded-low")

	// Recovery at the TTL: both periods end by themselves at exactly
	// start + 3 s, still in them 1 ns before.
	f = m.runPreset("auto-recovery", "12.0 s")
	checkAttributed(t, f)
	periods := m.rows(`[data-testid="periods"] tbody tr`)
	if len(periods) != 2 || periods[0]["state"] != "degraded" || periods[1]["state"] != "paused" {
		t.Fatalf("periods %v, want a degraded one and a paused one", periods)
	}
	for _, p := range periods {
		if p["ended"] != "ttl" || p.num(t, "end") != p.num(t, "start")+3e9 || p.num(t, "recoverAt") != p.num(t, "end") || p.num(t, "lastSeen") != p.num(t, "end")-1 {
			t.Errorf("period %v: want it ended by its TTL at exactly start + 3 s, seen in it 1 ns before", p)
		}
	}
	if !strings.HasPrefix(f["period-note"], "2 of 2 ended by their TTL at exactly") {
		t.Errorf("period-note = %q", f["period-note"])
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %v", e)
	}
}

// setHeld holds virtual time or lets it run, with the Hold time button.
func (m *mountView) setHeld(held bool) {
	m.t.Helper()
	if Eval[string](m.t, m.ctx, m.js("hold")+`.getAttribute("aria-pressed")`) != strconv.FormatBool(held) {
		m.click("hold", 1)
	}
}

// holdWhen lets virtual time run until the figures meet the JavaScript
// condition cond (over f and n, see figsJS), holds it there and returns
// the figures then. The page holds it itself: an observer in the page
// presses Hold time as soon as a frame's figures meet cond, so that the
// buttons the test presses next act at that virtual time, however long
// the test's own round trips take.
func (m *mountView) holdWhen(what, cond string) map[string]string {
	m.t.Helper()
	Eval[bool](m.t, m.ctx, `(() => {
		const root = document.querySelector(`+strconv.Quote(m.mount)+`), hold = `+m.js("hold")+`;
		const obs = new MutationObserver(() => {
			if (`+m.figsExpr(cond)+` === null) return;
			obs.disconnect();
			if (hold.getAttribute("aria-pressed") !== "true") hold.click();
		});
		obs.observe(root, {subtree: true, childList: true, characterData: true});
		if (hold.getAttribute("aria-pressed") === "true") hold.click();
		return true;
	})()`)
	return m.waitFor(what+", time held there", `f["viz-ready"] === "held" && (`+cond+`)`)
}

// The operator's buttons: a pause pressed by hand refuses every write
// (none accepted) until Normal is pressed, which ends the period by the
// operator before its TTL; then writes are accepted again.
//
// Virtual time is held in the page while the test presses a button (see
// holdWhen), so each acts at the virtual time meant whatever the machine's
// speed: Pause at 0.3 s (and at most one frame's 0.25 s more), Normal once
// the pause has refused 8 writes (about half a second later), well before
// the pause's TTL of 3 s and the preset's scripted Degraded at 2 s.
func TestWeek5ConsoleButtons(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	m := openWeek5(t, ctx, s, "viz-console")

	// The preset's run, new and held at 0 (so that nothing is pressed on
	// the run it replaces).
	m.setHeld(true)
	m.set("preset", "auto-recovery")
	m.set("speed", "1")
	m.waitFor("the auto-recovery run, held at 0", `f["viz-ready"] === "held" && f.story.startsWith("Recovery at the TTL") && f.clock === "t = 0.0 s"`)

	// The operator pauses by hand: everyone is refused by the pause until
	// Normal.
	m.holdWhen("the run at 0.3 s", `n("clock") >= 0.3`)
	m.click("op-pause", 1)
	f := m.holdWhen("the pause to refuse writes", `n("state-paused-paused") >= 8`)
	if count(t, f, "state-paused-accepted") != 0 {
		t.Errorf("%s writes accepted while Paused", f["state-paused-accepted"])
	}
	if !strings.HasPrefix(f["status-state"], "Paused") {
		t.Errorf("status-state = %q while paused", f["status-state"])
	}
	t.Logf("paused by hand, %s writes refused by the pause at %s", f["state-paused-paused"], f["clock"])
	accepted := count(t, f, "state-normal-accepted")
	m.click("op-normal", 1)
	m.setHeld(false)
	m.waitFor("writes accepted again", `n("state-normal-accepted") > `+strconv.FormatFloat(accepted, 'f', -1, 64)+` && document.querySelector('[data-testid="period0"]').dataset.ended === "operator"`)
	periods := m.rows(`[data-testid="periods"] tbody tr`)
	if p := periods[0]; p["state"] != "paused" || p.num(t, "end") <= p.num(t, "start") || p.num(t, "end") >= p.num(t, "recoverAt") {
		t.Errorf("period %v: want a pause ended by the operator before its TTL", p)
	}
	checkAttributed(t, m.waitFor("figures", "true"))

	m.set("impl", "yours")
	if stillAStub(t, "exercises/throttle/throttle.go") {
		f = m.waitFor("Yours to say it is not implemented", `f["impl-status"].includes("Yours: not implemented yet")`)
	} else {
		f = m.waitFor("Yours to run", `f["impl-status"].startsWith("Gate: Yours")`)
	}
	t.Logf("Yours: %s", f["impl-status"])
	m.scrollIntoView()
	ScreenshotViewport(t, ctx, "yours")
	Phone(t, ctx)
	m.set("impl", "reference")
	m.waitFor("the reference on a phone", `f["impl-status"] === "Gate: Reference" && n("clock") > 1`)
	m.scrollIntoView()
	ScreenshotViewport(t, ctx, "phone")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %v", e)
	}
}
