package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// TestClassDashboardLiveInBrowser signs an instructor in with a real
// browser and watches a learner's cell change on the dashboard, without a
// reload, when their submission is graded.
func TestClassDashboardLiveInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 2 * time.Minute})
	errs := browsertest.Console(ctx)
	db, tokens := setupClass(t, "ada", "bob")
	s := startClassServer(t, db, "--no-bench")

	browsertest.Do(t, ctx,
		chromedp.Navigate(s.URL+"/class/login"),
		chromedp.WaitVisible(browsertest.TestID("instructor-login")),
		chromedp.SendKeys(`[data-testid=instructor-login] input[name=name]`, "prof"),
		chromedp.SendKeys(`[data-testid=instructor-login] input[name=password]`, "correct horse battery"),
		chromedp.Submit(`[data-testid=instructor-login] input[name=password]`),
	)
	browsertest.WaitTestID(t, ctx, "dashboard-title")
	if got := browsertest.TextOf(t, ctx, "cell-ada-tokenbucket"); got != "—" {
		t.Errorf("ada's cell before any submission = %q, want —", got)
	}
	// Wait for the websocket, then mark the page: a reload would lose it.
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=live-state][data-live]")`, chromedp.WithPollingTimeout(20*time.Second)))
	browsertest.Eval[int](t, ctx, `window.__sameDocument = 1`)

	code, _, body := post(t, s, tokens["ada"], "tokenbucket", solutionFiles(t, "tokenbucket")...)
	if code != http.StatusAccepted {
		t.Fatalf("ada's submission: %d %v", code, body)
	}
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](
		`document.querySelector("[data-testid='cell-ada-tokenbucket']").textContent.trim() === "31 / 35"`,
		chromedp.WithPollingTimeout(90*time.Second)))
	if same := browsertest.Eval[int](t, ctx, `window.__sameDocument || 0`); same != 1 {
		t.Error("the dashboard reloaded instead of updating in place")
	}
	// The page as the server writes it says the same: the best score out
	// of the exercise's points (31 of 35 without the benchmark), not
	// "31 / 31", which read as full marks.
	browsertest.Do(t, ctx, chromedp.Reload(), chromedp.WaitVisible(browsertest.TestID("dashboard-title")))
	if got := browsertest.TextOf(t, ctx, "cell-ada-tokenbucket"); got != "31 / 35" {
		t.Errorf("ada's cell after a reload = %q, want 31 / 35", got)
	}
	if got := browsertest.TextOf(t, ctx, "cell-bob-tokenbucket"); got != "—" {
		t.Errorf("bob's cell = %q, want — (only ada submitted)", got)
	}
	browsertest.Screenshot(t, ctx, "dashboard")

	// The drill-down shows the report, built from the same components as
	// the exercise pages.
	browsertest.Do(t, ctx, chromedp.Click(`[data-testid='cell-ada-tokenbucket'] a`))
	browsertest.WaitTestID(t, ctx, "report")
	if got := browsertest.TextOf(t, ctx, "score"); !strings.HasPrefix(got, "31") {
		t.Errorf("drill-down score = %q, want 31 / 35", got)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// TestClassLearnerUploadsInBrowser signs a learner in with their token,
// uploads the exercise through the web form and follows the grading on the
// submission's page until its report shows.
func TestClassLearnerUploadsInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 2 * time.Minute})
	errs := browsertest.Console(ctx)
	db, tokens := setupClass(t, "ada")
	s := startClassServer(t, db, "--no-bench")
	abs, err := filepath.Abs(filepath.Join("..", "..", "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		t.Fatal(err)
	}
	browsertest.Do(t, ctx,
		chromedp.Navigate(s.URL+"/class/login"),
		chromedp.WaitVisible(browsertest.TestID("learner-login")),
		chromedp.SendKeys(`[data-testid=learner-login] input[name=token]`, tokens["ada"]),
		chromedp.Submit(`[data-testid=learner-login] input[name=token]`),
	)
	browsertest.WaitTestID(t, ctx, "upload-form")
	browsertest.Do(t, ctx,
		chromedp.SetValue(`[data-testid=upload-form] select[name=exercise]`, "tokenbucket"),
		chromedp.SetUploadFiles(`[data-testid=upload-form] input[name=files]`, []string{abs}),
		chromedp.Submit(`[data-testid=upload-form] select[name=exercise]`),
	)
	browsertest.WaitTestID(t, ctx, "submission-title")
	// The page follows the grading live, then reloads with the report.
	browsertest.Do(t, ctx, chromedp.WaitVisible(browsertest.TestID("report")))
	if got := browsertest.TextOf(t, ctx, "score"); !strings.HasPrefix(got, "31") {
		t.Errorf("score after the web upload = %q, want 31 / 35", got)
	}
	browsertest.Screenshot(t, ctx, "submission")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
