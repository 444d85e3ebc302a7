package browsertest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/internal/modcopy"
)

// copyModule copies the working tree of the module at root into dir (see
// modcopy.Copy), so a test may edit exercises/ without touching the
// learner's.
func copyModule(t testing.TB, root, dir string) {
	t.Helper()
	if err := modcopy.Copy(root, dir); err != nil {
		t.Fatalf("copying the module: %v", err)
	}
}

// startLabserver builds cmd/labserver in the module copy at dir and runs
// `labserver serve` there (single-learner mode, so it watches dir's
// exercises/), on a loopback port. Both, and the builds the server runs,
// build with -trimpath (modcopy.Env). The test's cleanup stops it.
func startLabserver(t testing.TB, dir string) *Server {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "labserver")
	build := exec.Command("go", "build", "-o", bin, "./cmd/labserver")
	build.Dir = dir
	build.Env = modcopy.Env()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building labserver: %v\n%s", err, out)
	}
	db := filepath.Join(t.TempDir(), "lab.db")
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
	cmd.Dir = dir
	cmd.Env = append(modcopy.Env(), "RATELAB_DB=", "RATELAB_STATIC_DIR=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting labserver serve: %v", err)
	}
	exited := make(chan struct{})
	urls := make(chan string, 1)
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if _, rest, ok := strings.Cut(line, "the lab is at "); ok {
				url, _, _ := strings.Cut(rest, " ")
				select {
				case urls <- url:
				default:
				}
			}
			fmt.Fprintln(os.Stderr, "labserver:", line)
		}
		cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	select {
	case url := <-urls:
		return &Server{URL: url, DBPath: db}
	case <-exited:
		t.Fatal("labserver serve exited before serving")
	case <-time.After(60 * time.Second):
		t.Fatal("labserver serve did not say where it listens within 60s")
	}
	return nil
}

// serveCopy copies the module into a temporary folder (copyModule) and
// serves it with labserver serve (startLabserver), so that a test may save
// under its exercises/ as a learner does. It returns the copy's folder.
func serveCopy(t testing.TB) (string, *Server) {
	t.Helper()
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyModule(t, root, dir)
	return dir, startLabserver(t, dir)
}

// The live loop, end to end: with the exercise page open, saving a file
// under exercises/ changes its grade badge without a reload (the time from
// the write to the badge is logged), and saving code that does not compile
// shows the compiler's message and keeps the last grade.
func TestLiveLoop(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds labserver and grades an exercise")
	}
	RequireChromium(t)
	dir, s := serveCopy(t)
	ctx := NewBrowser(t, BrowserOptions{Timeout: 4 * time.Minute})
	console := Console(ctx)

	Open(t, ctx, s, "/exercises/gcra", "no-report")
	poll := func(what, expr string, timeout time.Duration) map[string]any {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Poll[map[string]any](expr,
			chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(timeout)))
		if err != nil {
			Screenshot(t, ctx, "live-"+strings.ReplaceAll(what, " ", "-"))
			t.Fatalf("waiting for %s: %v", what, err)
		}
		return v
	}
	poll("the live websocket", `document.documentElement.dataset.live === "open" ? {} : null`, 20*time.Second)
	Eval[bool](t, ctx, `(window.ratelabNoReload = true)`)
	// The builds each save's Yours build made, as the page is told.
	Eval[bool](t, ctx, `(document.addEventListener("ratelab:yours", (e) => { window.rlBuilt = e.detail.files; }), true)`)

	gcra := filepath.Join(dir, "exercises", "gcra", "gcra.go")
	solution, err := os.ReadFile(filepath.Join(dir, "solutions", "gcra", "gcra.go"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := os.WriteFile(gcra, solution, 0o644); err != nil {
		t.Fatal(err)
	}
	got := poll("gcra's grade badge", `(() => {
		const b = document.querySelector('[data-live-report="gcra"] [data-testid="grade-gcra"]');
		const text = b ? b.textContent.trim() : "";
		return text && text !== "grading" && text !== "measuring" ? {text, at: Date.now()} : null;
	})()`, 2*time.Minute)
	at, _ := got["at"].(float64)
	t.Logf("save to badge, first save (the grader's child and Yours built for the first time in this copy): %d ms", int64(at)-start.UnixMilli())
	if text := got["text"]; text != "passed" {
		t.Errorf("gcra's badge after saving the reference = %q; want %q", text, "passed")
	}
	if !Eval[bool](t, ctx, `window.ratelabNoReload === true`) {
		t.Error("the page reloaded: the badge must change in place")
	}
	score := func(cond string) string {
		return `(() => {
			const s = document.querySelector('[data-live-report="gcra"] [data-testid="score"]');
			const text = s ? s.textContent.replace(/\s+/g, " ").trim() : "";
			return ` + cond + ` ? {text, at: Date.now()} : null;
		})()`
	}
	poll("the grade with benchmarks", score(`text.startsWith("25 ")`), 2*time.Minute)
	Screenshot(t, ctx, "live-graded")
	// gcra runs in the limiters' visualization, weeks 1 and 2's, which
	// both load week 1's builds: a save of it builds that Yours and the
	// replays' lab.wasm, no other.
	if built := Eval[[]string](t, ctx, `window.rlBuilt || []`); !slices.Equal(built, []string{"yours-week-1.wasm", "lab.wasm"}) {
		t.Errorf("a save of gcra built %q; want yours-week-1.wasm and lab.wasm", built)
	}

	// Saved again, warm: the grade without benchmarks (22 of 25 points, the
	// benchmarks running) replaces the full one.
	start = time.Now()
	if err := os.WriteFile(gcra, append(solution, "\n// saved again\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	got = poll("the grade of the second save", score(`text.startsWith("22 ")`), 2*time.Minute)
	at, _ = got["at"].(float64)
	t.Logf("save to badge, second save: %d ms (score %q)", int64(at)-start.UnixMilli(), got["text"])

	poll("the second save's benchmarks", score(`text.startsWith("25 ")`), 2*time.Minute)
	checks := Eval[int](t, ctx, `document.querySelectorAll('[data-live-report="gcra"] [data-testid^="check-gcra/"]').length`)

	// A save that does not compile keeps the report it would replace: the
	// compiler's lines above it, in the status panel and in a notice, the
	// grade and its checks as they were.
	broken := append(solution, "\nfunc broken() { undefinedThing() }\n"...)
	if err := os.WriteFile(gcra, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	notice := poll("the notice that the save does not compile", `(() => {
		const n = document.querySelector('[data-testid="not-built"]');
		return n && n.textContent.includes("undefinedThing") ? {text: n.textContent, pre: n.querySelector("pre") ? n.querySelector("pre").textContent : ""} : null;
	})()`, 2*time.Minute)
	if pre, _ := notice["pre"].(string); !strings.Contains(pre, "exercises/gcra/gcra.go:") {
		t.Errorf("the notice's compiler lines = %q; want exercises/gcra/gcra.go:line: message", pre)
	}
	msg := poll("the compiler's message", `(() => {
		const pre = document.querySelector('[data-testid="live-build-error"]');
		return pre && !pre.hidden && pre.textContent.includes("undefinedThing") ? {text: pre.textContent} : null;
	})()`, 2*time.Minute)
	if text, _ := msg["text"].(string); !strings.Contains(text, "exercises/gcra/gcra.go:") {
		t.Errorf("the build error shown = %q; want the compiler's exercises/gcra/gcra.go:line: message", text)
	}
	kept := Eval[map[string]any](t, ctx, `(() => {
		const q = (s) => document.querySelector('[data-live-report="gcra"] ' + s);
		return {badge: q('[data-testid="grade-gcra"]').textContent.trim(), score: q('[data-testid="score"]').textContent.replace(/\s+/g, " ").trim(),
			checks: document.querySelectorAll('[data-live-report="gcra"] [data-testid^="check-gcra/"]').length};
	})()`)
	if kept["badge"] != "passed" || !strings.HasPrefix(kept["score"].(string), "25 ") || int(kept["checks"].(float64)) != checks {
		t.Errorf("after a save that does not compile, the report shows %v; want the last grade kept: passed, 25 points, %d checks", kept, checks)
	}
	if !Eval[bool](t, ctx, `window.ratelabNoReload === true`) {
		t.Error("the page reloaded after the broken save")
	}
	// The status is a bar along the bottom of the window, with the
	// compiler's lines; the page's end makes room for it, so it never
	// hides what is under it for good. The padding follows the bar's
	// height from a ResizeObserver, a frame after the bar grew: polled.
	barJS := `(() => {
		const r = document.querySelector('[data-testid="live-status"]').getBoundingClientRect();
		return {left: r.left, right: r.right, bottom: r.bottom, height: r.height, width: innerWidth, vh: innerHeight,
			pad: parseFloat(getComputedStyle(document.body).paddingBottom)};
	})()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[map[string]any](`(() => { const b = `+barJS+`;
		return b.left <= 1 && b.right >= b.width - 1 && b.bottom >= b.vh - 1 && b.pad >= b.height - 1 ? b : null; })()`,
		chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Errorf("the live status = %v (%v); want a bar along the whole bottom of the window, the page padded by its height", Eval[map[string]float64](t, ctx, barJS), err)
	}
	Screenshot(t, ctx, "live-build-error")
	if errs := console(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
