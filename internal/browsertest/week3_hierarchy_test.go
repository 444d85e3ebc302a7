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

// The week 3 tests drive web/static/viz/hierarchy.js (the hierarchy
// leak) and gateway.js (the gateway's policy) on the week 3 lesson, against
// the lab.wasm TestMain built, and check what the lesson promises from the
// figures the page shows. Virtual time is moved by running at the top speed
// and polling until the run is done, never by sleeping.

// openWeek3 opens the week 3 lesson, with the visualization whose mount has
// data-testid testid alone on it (see onlyMount), and waits until it has
// drawn its first frame.
func openWeek3(t *testing.T, ctx context.Context, s *Server, testid string) *mountView {
	t.Helper()
	Open(t, ctx, s, "/lessons/week-3", testid)
	onlyMount(t, ctx, testid)
	m := &mountView{newVizPage(t, ctx, testid)}
	m.waitReady()
	return m
}

// count reads a figure written with thousands separators ("1,393").
func count(t *testing.T, f map[string]string, id string) float64 {
	t.Helper()
	s := strings.ReplaceAll(strings.Fields(f[id] + " ")[0], ",", "")
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s = %q, want a number", id, f[id])
	}
	return x
}

// stillAStub reports whether the exercise's file still panics with "not
// implemented": then "Yours" must say so.
func stillAStub(t *testing.T, file string) bool {
	t.Helper()
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(b), "not implemented yet\")")
}

func TestWeek3HierarchyLeak(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	requireWasm(t)
	errs := Console(ctx)
	s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
	m := openWeek3(t, ctx, s, "viz-hierarchy-leak")

	m.set("speed", "30")
	f := m.waitFor("the 30 s run to end", `f["impl-status"] === "All or nothing: Reference" && f.clock === "t = 30.0 s"`)
	leakyLost, treeLost := count(t, f, "leaky-lost"), count(t, f, "tree-lost")
	if leakyLost <= 0 || treeLost != 0 {
		t.Errorf("tokens lost: charge as you go %v, all or nothing %v; want > 0 and 0", leakyLost, treeLost)
	}
	if own := count(t, f, "tree-own"); own != 0 {
		t.Errorf("all or nothing refused sessions %v times at their own buckets, want 0", own)
	}
	// The unexplained throttle: a session refused by its own bucket while
	// far below its budget.
	throttled := 0
	for i := range 3 {
		id := "leaky-s" + strconv.Itoa(i)
		var got, budget float64
		if _, err := fmt.Sscanf(f[id+"-rate"], "%g / %g/s", &got, &budget); err != nil {
			t.Fatalf("%s-rate = %q: %v", id, f[id+"-rate"], err)
		}
		if own := count(t, f, id+"-own"); own > 0 && got < 0.8*budget {
			throttled++
			t.Logf("session %d charging as it goes: %v refusals by its own bucket at %v/s of %v/s", i+1, own, got, budget)
		}
	}
	if throttled == 0 || count(t, f, "leaky-own") == 0 {
		t.Errorf("no session was refused by its own bucket below its budget, charging as it goes:\n%s", m.dump())
	}
	if !strings.Contains(f["verdict"], "unexplained throttle") {
		t.Errorf("verdict = %q, want it to name the unexplained throttle", f["verdict"])
	}
	t.Logf("30 s: tokens lost %v charging as it goes, %v all or nothing; own-bucket refusals %s against %s",
		leakyLost, treeLost, f["leaky-own"], f["tree-own"])
	m.scrollIntoView()
	ScreenshotViewport(t, ctx, "reference")

	m.set("speed", yoursSpeed)
	m.set("impl", "yours")
	if stillAStub(t, "exercises/hierarchy/hierarchy.go") {
		f = m.waitFor("Yours to say it is not implemented", `f["impl-status"].includes("Yours: not implemented yet")`)
		if count(t, m.waitFor("charge as you go to run on", `n("clock") > 1`), "leaky-lost") <= 0 {
			t.Error("with Yours stopped, charge as you go must still run and lose tokens")
		}
	} else {
		f = m.waitFor("Yours to run", `f["impl-status"].startsWith("All or nothing: Yours")`)
	}
	t.Logf("Yours: %s", f["impl-status"])
	ScreenshotViewport(t, ctx, "yours")

	Phone(t, ctx)
	m.scrollIntoView()
	ScreenshotViewport(t, ctx, "phone")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %v", e)
	}
}
