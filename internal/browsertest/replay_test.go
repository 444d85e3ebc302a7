package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/weekbuild"
)

// fixtureWasm builds lab.wasm, and each week's Yours build that compiles
// exercise, with the fixture dir in place of exercises/<exercise> (go
// build -overlay: the learner's tree is not touched), into a new static
// folder beside wasm_exec.js, and returns the folder: a lesson and a
// replay both run the fixture as Yours.
func fixtureWasm(t *testing.T, root, exercise, dir string) string {
	t.Helper()
	if !assets.WasmExec {
		t.Fatalf("no wasm_exec.js: %v", assets.Err)
	}
	static := t.TempDir()
	js, err := os.ReadFile(filepath.Join(assets.Dir, "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(static, "wasm_exec.js"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	replace := map[string]string{}
	mine, _ := filepath.Glob(filepath.Join(root, "exercises", exercise, "*.go"))
	for _, f := range mine {
		replace[f] = "" // gone, unless the fixture has a file of that name
	}
	theirs, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range theirs {
		replace[filepath.Join(root, "exercises", exercise, filepath.Base(f))] = f
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	ov := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	weeks, err := weekbuild.Rebuilt(t.Context(), root, []string{exercise})
	if err != nil {
		t.Fatal(err)
	}
	for _, week := range weeks {
		name := weekbuild.YoursName(week)
		cmd := exec.Command("go", "build", "-tags", weekbuild.YoursTags(week), "-overlay", ov, "-o", filepath.Join(static, name), "./wasm")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s with the fixture as Yours: %v\n%s", name, err, out)
		}
	}
	return static
}

// gradeFixture grades the known-buggy fixture
// grader/testdata/fixtures/<exercise>/<name> as `make grade` would grade
// it in place of exercises/<exercise> (seed 1, no benchmarks), and returns
// the report, the first failed check whose counterexample is carried as
// data, and the fixture's folder.
func gradeFixture(t *testing.T, root, exercise, name string) (*report.Report, *report.Check, string) {
	t.Helper()
	fixture := filepath.Join(root, "grader", "testdata", "fixtures", exercise, name)
	r, err := grader.Grade(context.Background(), grader.Options{
		Root: root, Exercises: []string{exercise},
		Replace: map[string]string{exercise: fixture},
		Seed:    grader.DefaultSeed, NoBench: true,
	})
	if err != nil {
		t.Fatalf("grading the fixture: %v", err)
	}
	for i, c := range r.Exercises[0].Checks {
		if c.Status == report.Failed && c.Counterexample != nil && c.Counterexample.SetupCall != nil {
			failed := &r.Exercises[0].Checks[i]
			steps := failed.Counterexample.Steps
			if last := steps[len(steps)-1]; last.Got == last.Want {
				t.Fatalf("%s: the counterexample's last step agrees: %+v", failed.ID, last)
			}
			return r, failed, fixture
		}
	}
	t.Fatalf("the fixture failed no check with a replayable counterexample: %+v", r.Exercises[0].Checks)
	return nil, nil, ""
}

// watchdogRE is watchdogReport in Go.
var watchdogRE = regexp.MustCompile(strings.Trim(watchdogReport, "/"))

// replayRows clicks the Replay button of the check and returns the rows
// of its step table once drawn: each row's test id, then its first four
// cells' text (#, call, got, want). A replay is one call of Yours' worker,
// which must answer within 1 s of wall time: one that the page's watchdog
// stopped on a busy machine is replayed again, as pollFigures restarts a
// run, up to watchdogRestarts times.
func replayRows(t *testing.T, ctx context.Context, in string) [][]string {
	t.Helper()
	WaitTestID(t, ctx, "replay-button")
	if n := Eval[int](t, ctx, `document.querySelectorAll('.replay:not([hidden]) [data-testid="replay-button"]').length`); n == 0 {
		t.Fatal("no visible Replay button")
	}
	click := in + `.querySelector('[data-testid="replay-button"]').click() || true`
	for restarts := 0; ; restarts++ {
		Eval[bool](t, ctx, click)
		out, err := chromedp.Run(ctx, chromedp.Poll[map[string]string](`(() => {
			const box = `+in+`;
			if (box.querySelector('[data-testid="replay-result"]')) return {result: "shown"};
			const e = box.querySelector('[data-testid="replay-error"]');
			return e ? {error: e.textContent} : null;
		})()`, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout)))
		if err != nil {
			t.Fatalf("waiting for the replay: %v", err)
		}
		if out["result"] != "" {
			break
		}
		got := out["error"]
		if !watchdogRE.MatchString(got) || restarts == watchdogRestarts {
			t.Fatalf("the replay failed: %q", got)
		}
		t.Logf("the page's watchdog stopped the replay (%q), a call having taken over 1 s of wall time: replaying again", got)
		Eval[bool](t, ctx, click) // hide the error
	}
	return Eval[[][]string](t, ctx, `Array.from(`+in+`.querySelectorAll('[data-testid="replay-result"] tbody tr')).map(tr => [tr.dataset.testid, ...Array.from(tr.cells).slice(0, 4).map(c => c.textContent.trim())])`)
}

// A failed check of a known-buggy token bucket (the fixture that drops the
// fraction of every refill), graded and saved as `make grade` does: its
// Replay button runs the counterexample on the reference and on Yours (the
// same fixture, built into lab.wasm) and shows the step table, the step
// the grade says differs marked first, the bucket's state beside each step.
func TestReplayShowsTheDifferingStep(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r, failed, fixture := gradeFixture(t, root, "tokenbucket", "truncating-refill")
	steps := failed.Counterexample.Steps
	s := StartServer(t, ServerOptions{StaticDir: fixtureWasm(t, root, "tokenbucket", fixture), Reports: []*report.Report{r}})
	// Its browser comes after the slow work (grading, building lab.wasm), so
	// that its timeout bounds the use of the browser alone.
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	errs := Console(ctx)
	Open(t, ctx, s, "/exercises/tokenbucket", "exercise-title")

	in := `document.querySelector('[data-testid="check-` + failed.ID + `"]')`
	rows := replayRows(t, ctx, in)
	if len(rows) != len(steps)+1 {
		t.Fatalf("replay rows = %q, want the setup and %d steps", rows, len(steps))
	}
	if rows[0][0] != "replay-start" || rows[0][2] != failed.Counterexample.Setup {
		t.Errorf("first row = %q, want the setup %q", rows[0], failed.Counterexample.Setup)
	}
	for i, st := range steps {
		row := rows[i+1]
		wantID := "replay-step"
		got := st.Got
		if i == len(steps)-1 {
			wantID, got = "replay-first-diff", st.Got+"differs"
		}
		want := []string{wantID, strconv.Itoa(i + 1), st.Call, got, st.Want}
		if strings.Join(row, "|") != strings.Join(want, "|") {
			t.Errorf("replay row %d = %q, want %q", i+1, row, want)
		}
	}
	if got := Eval[string](t, ctx, in+`.querySelector('[data-testid="replay-summary"]').textContent`); got != "Step "+strconv.Itoa(len(steps))+" is the first where yours and the reference differ." {
		t.Errorf("summary = %q", got)
	}
	// The bucket's state beside each step: units held against capacity, and
	// the latest time seen.
	fields := Eval[[]string](t, ctx, `Array.from(`+in+`.querySelectorAll('[data-testid="replay-first-diff"] .replay-field')).map(f => f.textContent.trim())`)
	if len(fields) != 2 || !strings.HasPrefix(fields[0], "held") || !strings.Contains(fields[0], "tokens") || !strings.HasPrefix(fields[1], "latest") {
		t.Errorf("state beside the differing step = %q, want held … tokens and latest", fields)
	}
	if n := Eval[int](t, ctx, in+`.querySelectorAll('[data-testid="replay-first-diff"] meter').length`); n != 1 {
		t.Errorf("%d meters beside the differing step, want 1 (held against capacity)", n)
	}
	bg := Eval[[]string](t, ctx, `[`+in+`.querySelector('[data-testid="replay-first-diff"]'), `+in+`.querySelector('[data-testid="replay-step"], [data-testid="replay-start"]')].map(r => getComputedStyle(r).backgroundColor)`)
	if bg[0] == bg[1] {
		t.Errorf("differing step background %s = another row's: not marked", bg[0])
	}
	Eval[bool](t, ctx, `(`+in+`.querySelector('[data-testid="replay-result"]').scrollIntoView(), true)`)
	ScreenshotViewport(t, ctx, "replay")
	Screenshot(t, ctx, "page")

	// Hide, then replay again: the button toggles.
	Eval[bool](t, ctx, in+`.querySelector('[data-testid="replay-button"]').click() || true`)
	if n := Eval[int](t, ctx, in+`.querySelectorAll('[data-testid="replay-result"]').length`); n != 0 {
		t.Errorf("after Hide, %d replay tables", n)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// A week 5 exercise replays too: the throttle fixture that counts refused
// writes in the address's window, graded and saved; Replay on its failed
// check shows the step table with the grade's differing step marked, and
// beside it the gate's state: the breaker, MaxCalls, the congestion level
// and the written address's window count against its limit, drawn as a
// meter.
func TestReplayShowsTheThrottlesWindow(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r, failed, fixture := gradeFixture(t, root, "throttle", "counts-refused")
	steps := failed.Counterexample.Steps
	s := StartServer(t, ServerOptions{StaticDir: fixtureWasm(t, root, "throttle", fixture), Reports: []*report.Report{r}})
	// Its browser comes after the slow work (grading, building lab.wasm), so
	// that its timeout bounds the use of the browser alone.
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	errs := Console(ctx)
	Open(t, ctx, s, "/exercises/throttle", "exercise-title")

	in := `document.querySelector('[data-testid="check-` + failed.ID + `"]')`
	rows := replayRows(t, ctx, in)
	if len(rows) != len(steps)+1 || rows[0][0] != "replay-start" {
		t.Fatalf("replay rows = %q, want the setup and %d steps", rows, len(steps))
	}
	// The throttle's answers read as the grade's: nil, or the refusal's name.
	for i, st := range steps {
		row := rows[i+1]
		want := []string{"replay-step", strconv.Itoa(i + 1), st.Call, st.Got, st.Want}
		if i == len(steps)-1 {
			want[0], want[3] = "replay-first-diff", st.Got+"differs"
		}
		if strings.Join(row, "|") != strings.Join(want, "|") {
			t.Errorf("replay row %d = %q, want %q", i+1, row, want)
		}
	}
	last := steps[len(steps)-1]
	addr, _ := last.Args["addr"].(string)
	if last.Name != "Write" || addr == "" {
		t.Fatalf("the differing step is %s(%v), want a Write", last.Name, last.Args)
	}
	fields := Eval[map[string]string](t, ctx, `Object.fromEntries(Array.from(`+in+`.querySelectorAll('[data-testid="replay-first-diff"] .replay-field')).map(f => [f.dataset.field, f.querySelector('.replay-text').textContent]))`)
	for _, label := range []string{"breaker", "MaxCalls", "congestion", "addr " + addr, "now"} {
		if fields[label] == "" {
			t.Errorf("no %q beside the differing step: %q", label, fields)
		}
	}
	if got := fields["addr "+addr]; !regexp.MustCompile(`^[0-9]+ of [0-9]+ in the last [0-9,]+ ns`).MatchString(got) {
		t.Errorf("addr %s = %q, want its window's count against its limit", addr, got)
	}
	if n := Eval[int](t, ctx, in+`.querySelectorAll('[data-testid="replay-first-diff"] [data-field="addr `+addr+`"] meter').length`); n != 1 {
		t.Errorf("%d meters for addr %s, want 1", n, addr)
	}
	Eval[bool](t, ctx, `(`+in+`.querySelector('[data-testid="replay-result"]').scrollIntoView(), true)`)
	ScreenshotViewport(t, ctx, "replay-throttle")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// GCRA's Replay states τ as the lesson defines it, (b − 1)·T, worked out
// here from the counterexample's New(ratePerSec, burst, …): it once showed
// b·T ("τ = 142,857,142.857 ns" for rate 7, burst 1, where τ is 0).
func TestReplayGCRAStatesTheLessonsTau(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r, failed, fixture := gradeFixture(t, root, "gcra", "burst-plus-one")
	var rate, burst float64
	if _, err := fmt.Sscanf(failed.Counterexample.Setup, "New(ratePerSec=%g, burst=%g,", &rate, &burst); err != nil {
		t.Fatalf("setup %q: %v", failed.Counterexample.Setup, err)
	}
	s := StartServer(t, ServerOptions{StaticDir: fixtureWasm(t, root, "gcra", fixture), Reports: []*report.Report{r}})
	ctx := NewBrowser(t, BrowserOptions{Timeout: 3 * time.Minute})
	Open(t, ctx, s, "/exercises/gcra", "exercise-title")
	in := `document.querySelector('[data-testid="check-` + failed.ID + `"]')`
	replayRows(t, ctx, in)
	fields := Eval[[]string](t, ctx, `Array.from(`+in+`.querySelectorAll('[data-testid="replay-start"] .replay-field')).map(f => f.textContent.trim())`)
	tau := regexp.MustCompile(`τ = \(b − 1\)·T = ([0-9,.]+) ns`)
	var m []string
	for _, f := range fields {
		if m = tau.FindStringSubmatch(f); m != nil {
			break
		}
	}
	if m == nil {
		t.Fatalf("the state at the start = %q; want τ = (b − 1)·T = … ns", fields)
	}
	got, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	if want := (burst - 1) * 1e9 / rate; err != nil || math.Abs(got-want) > 1e-3 {
		t.Errorf("τ shown = %s ns for rate %g, burst %g; want (b − 1)·T = %.3f ns", m[1], rate, burst, want)
	}
	t.Logf("%s: %q", failed.Counterexample.Setup, fields)
}
