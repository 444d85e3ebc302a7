package main

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// TestClassReplayInBrowser replays a counterexample in class mode, as the
// local lab does: a Check's report beside the editor and a submission's
// page show a Replay button on each counterexample, and Replay runs the
// learner's own code (the class builds it) beside the reference, marking
// the first step where they differ.
func TestClassReplayInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Width: 1280, Height: 1000, Timeout: 6 * time.Minute})
	errs := browsertest.Console(ctx)
	static := t.TempDir()
	if a := browsertest.BuildAssets(context.Background(), static); a.Err != nil || !a.Wasm {
		t.Fatalf("building the lab's assets: %v", a.Err)
	}
	db, tokens := setupClass(t, "ada")
	s := startClassServer(t, db, "--no-bench", "--static-dir", static, "--yours-cache", t.TempDir())
	// Her bucket lets the tokens pass its capacity.
	noCap := tokenbucketWith(t, "if carry|borrow != 0 {", "if carry != 0 {", "")
	if code, body := putDraft(t, s, tokens["ada"], "tokenbucket", noCap...); code != http.StatusOK {
		t.Fatalf("ada's draft: %d %v", code, body)
	}

	replay := func(where string) {
		t.Helper()
		n := browsertest.Eval[int](t, ctx, `document.querySelectorAll(".replay:not([hidden]) [data-testid=replay-button]").length`)
		if n == 0 {
			t.Fatalf("%s shows no Replay button", where)
		}
		browsertest.Do(t, ctx, chromedp.Click(`.replay:not([hidden]) [data-testid=replay-button]`))
		if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=replay-first-diff]")`, chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
			t.Fatalf("%s: Replay marks no first differing step: %v\n%s", where, err, browsertest.Eval[string](t, ctx, `(document.querySelector("[data-testid=replay]") || document.body).innerText`))
		}
		browsertest.Do(t, ctx, chromedp.ScrollIntoView(`[data-testid=replay-first-diff]`))
		browsertest.ScreenshotViewport(t, ctx, where)
	}

	signInLearner(t, ctx, s, tokens["ada"])
	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/exercises/tokenbucket"))
	waitEditor(t, ctx)
	browsertest.ClickTestID(t, ctx, "editor-check")
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=editor-out] [data-testid=check-result] [data-testid=score]")`, chromedp.WithPollingTimeout(2*time.Minute)))
	// The checked code is Yours now: the page asks for its build at once
	// (building for 1.5 s at least, until it asks again), and a Replay
	// waits for it.
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-yours-api][data-state=building]")`, chromedp.WithPollingTimeout(10*time.Second)))
	replay("check-replay")

	code, _, body := post(t, s, tokens["ada"], "tokenbucket", noCap...)
	if code != http.StatusAccepted {
		t.Fatalf("ada's submission: %d %v", code, body)
	}
	awaitGraded(t, s, tokens["ada"], int64(body["id"].(float64)), 2*time.Minute)
	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+fmt.Sprint(body["url"])), chromedp.WaitVisible(browsertest.TestID("report")))
	replay("submission-replay")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
