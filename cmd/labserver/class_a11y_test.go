package main

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// TestClassAxeInBrowser runs axe-core's WCAG 2.1 AA rules on the pages of
// class mode, in the light color scheme and in the dark, as a learner and
// an instructor meet them: the sign-in page, the learner's page with a
// graded submission listed, that submission's page with its report, the
// instructor's dashboard with the cell it fills (on a phone too), and a
// submission that does not compile. The lab's own pages are checked by
// internal/browsertest's TestAxeEveryPage.
func TestClassAxeInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 3 * time.Minute})
	src := browsertest.RequireAxe(t)
	db, tokens := setupClass(t, "ada", "bob")
	s := startClassServer(t, db, "--no-bench")
	// Graded while the sign-in page is checked: ada's passes most checks,
	// bob's does not compile.
	code, _, body := post(t, s, tokens["ada"], "tokenbucket", solutionFiles(t, "tokenbucket")...)
	if code != http.StatusAccepted {
		t.Fatalf("ada's submission: %d %v", code, body)
	}
	code, _, body = post(t, s, tokens["bob"], "gcra", upload{"gcra.go", "package gcra\n\nfunc New() int { return \"not an int\" }\n"})
	if code != http.StatusAccepted {
		t.Fatalf("bob's submission: %d %v", code, body)
	}
	bobs := fmt.Sprint(body["url"])

	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/login"), chromedp.WaitVisible(browsertest.TestID("learner-login")))
	browsertest.CheckA11y(t, ctx, src, "the sign-in page")
	// A failed sign-in shows its problem on the same page.
	browsertest.Do(t, ctx,
		chromedp.SendKeys(`[data-testid=learner-login] input[name=token]`, "rl_not-a-token"),
		chromedp.Submit(`[data-testid=learner-login] input[name=token]`),
	)
	browsertest.WaitTestID(t, ctx, "login-error")
	browsertest.CheckA11y(t, ctx, src, "the sign-in page after a wrong token")

	browsertest.Do(t, ctx,
		chromedp.SendKeys(`[data-testid=learner-login] input[name=token]`, tokens["ada"]),
		chromedp.Submit(`[data-testid=learner-login] input[name=token]`),
	)
	browsertest.WaitTestID(t, ctx, "upload-form")
	browsertest.WaitTestID(t, ctx, "submissions")
	browsertest.CheckA11y(t, ctx, src, "the learner's page")

	browsertest.Do(t, ctx, chromedp.Click(`[data-testid=submissions] a`))
	browsertest.WaitTestID(t, ctx, "submission-title")
	browsertest.Do(t, ctx, chromedp.WaitVisible(browsertest.TestID("report")))
	browsertest.CheckA11y(t, ctx, src, "the learner's graded submission")

	// The submission's page has no sign-out button: the learner's page has.
	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/me"), chromedp.WaitVisible(browsertest.TestID("logout")))
	browsertest.ClickTestID(t, ctx, "logout")
	browsertest.Do(t, ctx,
		chromedp.WaitVisible(browsertest.TestID("instructor-login")),
		chromedp.SendKeys(`[data-testid=instructor-login] input[name=name]`, "prof"),
		chromedp.SendKeys(`[data-testid=instructor-login] input[name=password]`, "correct horse battery"),
		chromedp.Submit(`[data-testid=instructor-login] input[name=password]`),
	)
	browsertest.WaitTestID(t, ctx, "dashboard-title")
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=live-state][data-live]")`, chromedp.WithPollingTimeout(20*time.Second)))
	browsertest.CheckA11y(t, ctx, src, "the instructor's dashboard")
	// On a phone the gradebook scrolls sideways: a keyboard must reach it.
	browsertest.Phone(t, ctx)
	browsertest.Do(t, ctx, chromedp.Reload(), chromedp.WaitVisible(browsertest.TestID("dashboard-title")))
	browsertest.CheckA11y(t, ctx, src, "the instructor's dashboard on a phone")
	browsertest.Do(t, ctx, chromedp.EmulateViewport(1280, 900))

	browsertest.Do(t, ctx, chromedp.Click(`[data-testid='cell-ada-tokenbucket'] a`))
	browsertest.WaitTestID(t, ctx, "report")
	browsertest.CheckA11y(t, ctx, src, "the instructor's view of a submission")

	// A submission that did not compile, once graded.
	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+bobs), chromedp.WaitVisible(browsertest.TestID("submission-title")))
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector('[data-testid="report"], [data-testid="grading-error"]')`, chromedp.WithPollingTimeout(90*time.Second)))
	browsertest.CheckA11y(t, ctx, src, "the instructor's view of a submission that does not compile")
	for _, scheme := range []string{"dark", "light"} {
		browsertest.ColorScheme(t, ctx, scheme)
		browsertest.Screenshot(t, ctx, "compile-error-"+scheme)
	}
}
