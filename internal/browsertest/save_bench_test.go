package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkSaveToPage measures the live loop as a learner feels it: with
// the tokenbucket exercise page open on `labserver serve` (a copy of the
// module, as TestLiveLoop has), it saves exercises/tokenbucket b.N times,
// each time the reference with a comment of its own (new code: a build
// and a whole grading), and reports, from the write to what the page
// shows (the browser's clock against the test's, one machine's):
//
//   - first-ms/save: the first check's result on the page (the line
//     "Grading your latest save: …" above the standing grade);
//   - graded-ms/save: the grade, before the benchmark checks (the badge
//     says "measuring");
//   - budget-ms/save: the grade with them (the badge says "passed").
//
// The first save of a run builds the grading child and Yours for the
// first time in the copy; make bench runs a few saves a run, and
// benchstat's summary shows their spread.
func BenchmarkSaveToPage(b *testing.B) {
	RequireChromium(b)
	dir, s := serveCopy(b)
	ctx := NewBrowser(b, BrowserOptions{Timeout: 20 * time.Minute})
	Open(b, ctx, s, "/exercises/tokenbucket", "no-report")
	file := filepath.Join(dir, "exercises", "tokenbucket", "tokenbucket.go")
	solution, err := os.ReadFile(filepath.Join(dir, "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		b.Fatal(err)
	}
	// until polls the page for cond every 5 ms and returns the browser's
	// clock (ms) when it first held.
	until := func(what, cond string) float64 {
		b.Helper()
		at, err := chromedp.Run(ctx, chromedp.Poll[float64](`(`+cond+`) ? Date.now() : null`,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(5*time.Minute)))
		if err != nil {
			Screenshot(b, ctx, "save-bench-"+what)
			b.Fatalf("waiting for %s: %v", what, err)
		}
		return at
	}
	until("the live websocket", `document.documentElement.dataset.live === "open"`)
	const badge = `(document.querySelector('[data-live-report="tokenbucket"] [data-testid="grade-tokenbucket"]') || {textContent: ""}).textContent.trim()`
	var first, graded, budget float64
	saves := 0
	for b.Loop() {
		saves++
		// The page's marks of the last save are gone before this one.
		until("the page to settle", `!document.querySelector("[data-testid=regrading]") && `+badge+` !== "measuring"`)
		start := float64(time.Now().UnixMilli())
		code := fmt.Appendf(append([]byte{}, solution...), "\n// save %d\n", saves)
		if err := os.WriteFile(file, code, 0o644); err != nil {
			b.Fatal(err)
		}
		first += until("the first check", `document.querySelector("[data-testid=regrading]") || `+badge+` === "measuring"`) - start
		graded += until("the grade", badge+` === "measuring"`) - start
		budget += until("the grade with the benchmarks", badge+` === "passed"`) - start
	}
	n := float64(b.N)
	b.ReportMetric(first/n, "first-ms/save")
	b.ReportMetric(graded/n, "graded-ms/save")
	b.ReportMetric(budget/n, "budget-ms/save")
	b.ReportMetric(0, "ns/op") // the loop's wall time includes the waits for the page to settle
}
