package page

import (
	"encoding/json"
	"testing"
	"time"

	"ratelab/grader/report"
	"ratelab/lab/course"
)

// A counterexample carried as data gets a replay box (hidden until
// replay.js shows it) holding the report's JSON; one without setup_call,
// from an older report, gets none; the page loads replay.js only when
// lab.wasm is built.
func TestExercisePageCarriesReplayData(t *testing.T) {
	e := failingTokenBucket()
	c := &e.Checks[1]
	if c.Counterexample == nil {
		t.Fatal("fixture check has no counterexample")
	}
	old := *c.Counterexample
	setup := report.Call{Name: "New", Args: map[string]any{"capacity": "1", "ratePerSec": "1000", "nowNs": "0"}}
	cx := old
	cx.SetupCall = &setup
	cx.Steps = append([]report.Step(nil), old.Steps...)
	for i := range cx.Steps {
		cx.Steps[i].Name, cx.Steps[i].Args = "TryAcquire", map[string]any{"nowNs": "0", "n": "1"}
	}
	ex, _ := course.Lookup("tokenbucket")
	g := &Graded{Result: e, SavedAt: time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC), Seed: 1}

	c.Counterexample = &old
	doc := render(t, ExercisePage(ex, g, FindAssets(func(string) bool { return true })))
	if n := doc.Find("[data-replay]").Length(); n != 0 {
		t.Errorf("%d replay boxes for a counterexample without setup_call", n)
	}

	c.Counterexample = &cx
	doc = render(t, ExercisePage(ex, g, FindAssets(func(string) bool { return true })))
	box := doc.Find("[data-replay]")
	if box.Length() != 1 || box.AttrOr("data-replay", "") != "tokenbucket" {
		t.Fatalf("replay boxes = %d (exercise %q), want 1 for tokenbucket", box.Length(), box.AttrOr("data-replay", ""))
	}
	if _, hidden := box.Attr("hidden"); !hidden || box.Find(`[data-testid="replay-button"]`).Length() != 1 {
		t.Error("replay box not hidden, or without its button")
	}
	var back report.Counterexample
	if err := json.Unmarshal([]byte(box.AttrOr("data-replay-cx", "")), &back); err != nil || back.SetupCall == nil || back.SetupCall.Args["ratePerSec"] != "1000" || len(back.Steps) != len(cx.Steps) {
		t.Errorf("data-replay-cx = %q (%v)", box.AttrOr("data-replay-cx", ""), err)
	}
	if doc.Find(`script[src="/static/replay.js"]`).Length() != 1 {
		t.Error("the exercise page does not load replay.js with lab.wasm built")
	}
	doc = render(t, ExercisePage(ex, g, Assets{}))
	if doc.Find(`script[src="/static/replay.js"]`).Length() != 0 {
		t.Error("the exercise page loads replay.js without lab.wasm")
	}
}

// A counterexample of the governor's pure Decide carries no setup_call
// (its setup binds cfg), and still gets a replay box: lab/replay reads the
// binding.
func TestExercisePageReplaysDecide(t *testing.T) {
	ex, _ := course.Lookup("governor")
	cx := report.Counterexample{
		Setup: "cfg = Config{Floor: 1, Ceiling: 10, Start: 0, Low: 0, High: 0.1}",
		Steps: []report.Step{{
			Call: "Decide(cfg, frac=0.1, current=1, lastBad=0)", Got: "{Action: Double, Offer: 2, LastBad: 0}", Want: "{Action: Hold, Offer: 1, LastBad: 0}",
			Name: "Decide", Args: map[string]any{"cfg": "cfg", "frac": 0.1, "current": "1", "lastBad": "0"},
		}},
	}
	e := report.Exercise{ID: "governor", Week: 4, Title: "Throttle governor", Status: report.Failed, MaxScore: 30, Checks: []report.Check{{
		ID: "governor/dead-band", Title: "Holds in the dead band", Kind: report.Property, Pitfall: "dead-band",
		Status: report.Failed, MaxScore: 4, Counterexample: &cx,
	}}}
	g := &Graded{Result: e, SavedAt: time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC), Seed: 1}
	doc := render(t, ExercisePage(ex, g, FindAssets(func(string) bool { return true })))
	if box := doc.Find("[data-replay]"); box.Length() != 1 || box.AttrOr("data-replay", "") != "governor" {
		t.Fatalf("replay boxes = %d (exercise %q), want 1 for governor", box.Length(), box.AttrOr("data-replay", ""))
	}
	cx.Setup = "// each step is a call on its own"
	doc = render(t, ExercisePage(ex, g, FindAssets(func(string) bool { return true })))
	if n := doc.Find("[data-replay]").Length(); n != 0 {
		t.Errorf("%d replay boxes for steps that are each a call on their own", n)
	}
}
