package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/live"
)

// scriptedGrader is a live loop's grader whose pace a test sets: it
// grades an exercise to its result in results, one check per receive on
// step, reporting each check as grader.Grade does, and each pass (the
// properties, then the benchmarks) only its own checks.
type scriptedGrader struct {
	results map[string]report.Exercise
	step    chan struct{}
}

func (g *scriptedGrader) plan(id string) ([]report.Check, error) {
	ex, ok := g.results[id]
	if !ok {
		return nil, errors.New("not an exercise of this test")
	}
	var cs []report.Check
	for _, c := range ex.Checks {
		cs = append(cs, report.Check{ID: c.ID, Title: c.Title, Kind: c.Kind, Pitfall: c.Pitfall, MaxScore: c.MaxScore, Status: report.Skipped})
	}
	return cs, nil
}

func (g *scriptedGrader) grade(ctx context.Context, ids []string, pass live.Pass, progress func(grader.Event)) (*report.Report, error) {
	r := &report.Report{Schema: report.Schema, Target: "exercises", Seed: grader.DefaultSeed}
	for _, id := range ids {
		ex := g.results[id]
		ex.Checks = slices.Clone(ex.Checks)
		for i, c := range ex.Checks {
			if (c.Kind == report.Benchmark) != (pass == live.Benchmarks) {
				ex.Checks[i] = report.Check{ID: c.ID, Title: c.Title, Kind: c.Kind, Pitfall: c.Pitfall, MaxScore: c.MaxScore, Status: report.Skipped}
				continue
			}
			select {
			case <-g.step:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			progress(grader.Event{Exercise: id, Phase: grader.PhaseResult, Result: &c})
		}
		ex.Total()
		ex.Status = ex.Graded()
		r.Exercises = append(r.Exercises, ex)
	}
	r.Total()
	return r, nil
}

// startScriptedLive runs the live loop over hub with g as its grader, until
// the test ends, and returns the channel its saves are sent on.
func startScriptedLive(t *testing.T, hub *live.Hub, g *scriptedGrader) chan<- []string {
	t.Helper()
	changes := make(chan []string)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		live.Run(ctx, changes, live.Config{
			Hub: hub, Build: func(context.Context, []string) ([]string, error) { return nil, nil },
			Grade: g.grade, Plan: g.plan, Save: func(context.Context, *report.Report) error { return nil },
			Seed: grader.DefaultSeed,
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	return changes
}

// replayStatic is a static folder with stand-ins for lab.wasm and
// wasm_exec.js: enough for the exercise pages to load replay.js and show
// their Replay buttons, for a test that presses none.
func replayStatic(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"lab.wasm", "wasm_exec.js"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A save graded live, with the exercise page open: the standing grade
// (badge, score, seed) stays as it is while the checks come in, with a line
// that counts them, and changes once, when the grade is complete; during the
// benchmarks the grade and the benchmark say "measuring"; the report is
// updated in place, so a focused Replay button keeps the focus through it
// all. Without a standing grade, the grade so far shows the real seed, its
// checks still to run "pending" apart from those that need attention, and
// no score counting up.
func TestLiveRegradeKeepsTheStandingGradeAndTheFocus(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	var standing *report.Report
	for _, r := range replayReports(t) {
		if ex := r.Find("throttle"); ex != nil && slices.ContainsFunc(ex.Checks, func(c report.Check) bool {
			return c.ID == "throttle/rate-window" && c.Status == report.Failed && c.Counterexample != nil
		}) {
			standing = r
		}
	}
	if standing == nil {
		t.Fatal("no report in lab/replay/testdata where throttle/rate-window fails")
	}
	// The new grade: the same failure, the benchmark measured and passed.
	throttle := *standing.Find("throttle")
	throttle.Checks = slices.Clone(throttle.Checks)
	f := func(v float64) *float64 { return &v }
	var props []string
	for i, c := range throttle.Checks {
		if c.Kind == report.Benchmark {
			throttle.Checks[i].Status, throttle.Checks[i].Score = report.Passed, c.MaxScore
			throttle.Checks[i].NsPerOp, throttle.Checks[i].BudgetNs, throttle.Checks[i].AllocsPerOp = f(20), f(40), f(0)
		} else {
			props = append(props, c.ID)
		}
	}
	g := &scriptedGrader{step: make(chan struct{}), results: map[string]report.Exercise{
		"throttle":    throttle,
		"tokenbucket": *SampleReport().Find("tokenbucket"),
	}}
	hub := &live.Hub{}
	s := StartServer(t, ServerOptions{Reports: []*report.Report{standing}, Live: hub, StaticDir: replayStatic(t)})
	saves := startScriptedLive(t, hub, g)
	ctx := NewBrowser(t, BrowserOptions{})

	Open(t, ctx, s, "/exercises/throttle", "report")
	wait := func(what, cond string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			Screenshot(t, ctx, "live-report-"+strings.ReplaceAll(what, " ", "-"))
			t.Fatalf("waiting for %s: %v", what, err)
		}
	}
	wait("the live websocket and the Replay buttons", `document.documentElement.dataset.live === "open" && !!document.querySelector('.replay:not([hidden]) [data-testid=replay-button]')`)
	focus := `[data-testid="check-throttle/rate-window"] [data-testid=replay-button]`
	if !Eval[bool](t, ctx, `(() => { const b = document.querySelector('`+focus+`'); b.focus(); window.focusedAtStart = b; return document.activeElement === b; })()`) {
		t.Fatal("could not focus rate-window's Replay button")
	}
	// summary is what the report says of the grade, and whether the focus
	// is still on the button focused at the start.
	summary := `(() => {
		const q = (s) => { const e = document.querySelector('[data-live-report] ' + s); return e ? e.textContent.replace(/\s+/g, " ").trim() : ""; };
		return {badge: q('[data-testid="grade-throttle"]'), score: q('[data-testid=score]'), line: q('[data-testid=graded-line]') || q('p.muted'),
			budget: q('[data-testid="check-throttle/budget"] .badge'),
			focused: document.activeElement === window.focusedAtStart && window.focusedAtStart.isConnected};
	})()`
	before := Eval[map[string]any](t, ctx, summary)
	if before["focused"] != true || before["badge"] != "failed" {
		t.Fatalf("the standing grade = %v; want failed, the Replay button focused", before)
	}

	saves <- []string{"throttle"}
	for i, id := range props {
		g.step <- struct{}{}
		if i == len(props)-1 {
			break // the grade follows at once
		}
		// The page took the check in when it counts it, or (as it did
		// once) when the score it shows is no longer the standing one.
		wait(id+"'s result", fmt.Sprintf(`(document.querySelector('[data-testid=regrading]')?.textContent.includes("%d of %d checks run")) ||
			document.querySelector('[data-live-report] [data-testid=score]')?.textContent.replace(/\s+/g, " ").trim() !== %q`, i+1, len(throttle.Checks), before["score"]))
		now := Eval[map[string]any](t, ctx, summary)
		if now["badge"] != before["badge"] || now["score"] != before["score"] || now["line"] != before["line"] || now["focused"] != true {
			t.Fatalf("after %d of %d checks, the report shows %v; want the standing grade %v as it was, the Replay button focused", i+1, len(props), now, before)
		}
		if Eval[bool](t, ctx, `document.body.innerText.includes("Waiting to run")`) {
			t.Errorf("after %d checks the page says Waiting to run: the standing grade stays until the new one is complete", i+1)
		}
	}
	wait("the grade without the benchmarks", `document.querySelector('[data-live-report] [data-testid="check-throttle/budget"]')?.dataset.status !== "skipped" && document.querySelector('[data-testid=live-line]')?.textContent.startsWith("Graded throttle")`)
	measuring := Eval[map[string]any](t, ctx, summary)
	if measuring["badge"] != "measuring" || measuring["budget"] != "measuring" || measuring["focused"] != true {
		t.Errorf("during the benchmarks the report shows %v; want the grade and the budget measuring, the Replay button still focused", measuring)
	}
	if n := Eval[int](t, ctx, `document.querySelectorAll('[data-testid=checks-attention] [data-testid="check-throttle/budget"]').length`); n != 0 {
		t.Error("the benchmark being measured is listed under Needs attention")
	}
	Screenshot(t, ctx, "live-report-measuring")
	g.step <- struct{}{}
	wait("the complete grade", `document.querySelector('[data-live-report] [data-testid="check-throttle/budget"]')?.dataset.status === "passed"`)
	after := Eval[map[string]any](t, ctx, summary)
	if after["badge"] != "failed" || !strings.HasPrefix(after["score"].(string), "36 ") || after["focused"] != true {
		t.Errorf("the complete grade shows %v; want failed, 36 points, the Replay button still focused", after)
	}

	// A first grade: the grade so far, pending checks apart.
	Open(t, ctx, s, "/exercises/tokenbucket", "no-report")
	wait("the live websocket", `document.documentElement.dataset.live === "open"`)
	saves <- []string{"tokenbucket"}
	g.step <- struct{}{}
	wait("the grade so far", `!!document.querySelector('[data-live-report] [data-testid=report]')`)
	sofar := Eval[map[string]any](t, ctx, `(() => {
		const r = document.querySelector('[data-live-report] [data-testid=report]');
		const st = (id) => r.querySelector('[data-testid="check-' + id + '"]')?.dataset.status || "";
		return {line: r.querySelector('[data-testid=graded-line]')?.textContent.replace(/\s+/g, " ").trim() || r.textContent.match(/property seed \d+/)?.[0] || "",
			score: r.querySelector('[data-testid=score]').textContent.replace(/\s+/g, " ").trim(),
			capacity: st("tokenbucket/capacity"), budget: st("tokenbucket/budget"), exactness: st("tokenbucket/exactness"),
			attention: [...r.querySelectorAll('[data-testid=checks-attention] [data-status]')].map((e) => e.dataset.status),
			text: r.innerText};
	})()`)
	if line, _ := sofar["line"].(string); !strings.Contains(line, "property seed 1") {
		t.Errorf("the grade so far says %q; want property seed 1, the grading's", line)
	}
	if sofar["capacity"] != "passed" || sofar["budget"] != "pending" || sofar["exactness"] != "pending" {
		t.Errorf("the checks so far: capacity %v, budget %v, exactness %v; want passed, pending, pending", sofar["capacity"], sofar["budget"], sofar["exactness"])
	}
	if a, _ := sofar["attention"].([]any); len(a) != 0 {
		t.Errorf("Needs attention lists checks %v while none has failed", a)
	}
	if score, _ := sofar["score"].(string); strings.Contains(score, "/") {
		t.Errorf("the grade so far shows the score %q: a score counting up reads as a grade", score)
	}
	if text, _ := sofar["text"].(string); strings.Contains(text, "skipped") || strings.Contains(text, "Waiting to run") {
		t.Errorf("the grade so far says skipped or Waiting to run:\n%s", text)
	}
	Screenshot(t, ctx, "live-report-so-far")
}
