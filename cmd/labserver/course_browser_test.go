package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// TestCourseDueDatesInBrowser has the instructor set a due date with a
// penalty and grant an extension through the dashboard's forms, in a real
// browser, and the learner see their due date and the time left; axe
// finds no problem on either page.
func TestCourseDueDatesInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 2 * time.Minute})
	errs := browsertest.Console(ctx)
	src := browsertest.RequireAxe(t)
	db, tokens := setupClass(t, "ada", "bob")
	s := startClassServer(t, db, "--no-bench")
	signInInstructor(t, ctx, s)

	due := time.Now().AddDate(0, 0, 10).Format("2006-01-02") + "T23:59"
	cutoff := time.Now().AddDate(0, 0, 13).Format("2006-01-02") + "T23:59"
	browsertest.Do(t, ctx,
		chromedp.SetValue(`[data-testid=due-target]`, "week:1"),
		chromedp.SetValue(`[data-testid=due-at]`, due),
		chromedp.SetValue(`[data-testid=due-tz]`, "Europe/Paris"),
		chromedp.SetValue(`[data-testid=due-late]`, "penalty"),
		chromedp.SetValue(`[data-testid=due-penalty]`, "10"),
		chromedp.SetValue(`[data-testid=due-cutoff]`, cutoff),
		chromedp.Click(`[data-testid=due-set]`),
	)
	browsertest.WaitTestID(t, ctx, "due-rules")
	if got := browsertest.TextOf(t, ctx, "due-rules"); !strings.Contains(got, "week 1") || !strings.Contains(got, "late work is accepted with −10% per started day until") {
		t.Errorf("the due dates after the form = %q; want week 1's, with its penalty", got)
	}
	browsertest.Do(t, ctx,
		chromedp.SetValue(`[data-testid=extend-learner]`, "bob"),
		chromedp.SetValue(`[data-testid=extend-target]`, "exercise:gcra"),
		chromedp.SetValue(`[data-testid=extend-until]`, cutoff),
		chromedp.Click(`[data-testid=extend-set]`),
	)
	browsertest.WaitTestID(t, ctx, "due-extensions")
	if got := browsertest.TextOf(t, ctx, "due-extensions"); !strings.Contains(got, "bob: exercise gcra until") {
		t.Errorf("the extensions after the form = %q; want bob's of gcra", got)
	}
	if got := browsertest.TextOf(t, ctx, "due-changes"); strings.Count(got, "no submission's mark changed") != 2 {
		t.Errorf("the changes listed = %q; want both, neither re-marking anything", got)
	}
	browsertest.CheckA11y(t, ctx, src, "the dashboard with due dates")
	browsertest.Screenshot(t, ctx, "due-panel")

	browsertest.Do(t, ctx,
		chromedp.Click(`[data-testid=logout]`),
		chromedp.WaitVisible(browsertest.TestID("learner-login")),
		chromedp.SendKeys(`[data-testid=learner-login] input[name=token]`, tokens["ada"]),
		chromedp.Submit(`[data-testid=learner-login] input[name=token]`),
	)
	browsertest.WaitTestID(t, ctx, "due-lines")
	if got := browsertest.TextOf(t, ctx, "due-line-tokenbucket"); !strings.Contains(got, "Token bucket: due") || !strings.Contains(got, "due in 10 days") && !strings.Contains(got, "due in 9 days") {
		t.Errorf("ada's due line for the token bucket = %q; want its due date, due in 9 or 10 days", got)
	}
	browsertest.CheckA11y(t, ctx, src, "the learner's page with due dates")
	browsertest.Screenshot(t, ctx, "learner-due")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
