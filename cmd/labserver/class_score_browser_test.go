package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// TestClassLearnerScoreInBrowser has a learner submit from the editor two
// days late under a penalty of 10% per started day, in a class where
// others submitted and she checked first: the editor's submit line turns
// into her grade with its penalty and the score that counts; her pages
// number her submissions 1, 2 (not the class's numbers, which her check
// and the others' submissions used), show the score that counts with how
// it was counted, in the words every page uses for the policy.
func TestClassLearnerScoreInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 5 * time.Minute})
	errs := browsertest.Console(ctx)
	db, tokens := setupClass(t, "ada", "bob")
	s := startClassServer(t, db, "--no-bench")
	client, csrf := instructor(t, s)
	// 30 hours late is two started days: −20%.
	postForm(t, s, client, csrf, "/class/course/due", url.Values{"target": {"week:1"}, "at": {time.Now().UTC().Add(-30 * time.Hour).Format("2006-01-02T15:04")}, "tz": {"UTC"}, "late": {"penalty"}, "penalty": {"10"}})
	const policy = "−10% per started day"
	const penalty = policy + ": 2 days late, −20%"

	// bob submits twice and ada checks: the class's numbers 1 to 3.
	reference := solutionFiles(t, "tokenbucket")
	for range 2 {
		if code, _, body := post(t, s, tokens["bob"], "tokenbucket", reference...); code != http.StatusAccepted {
			t.Fatalf("bob's submission: %d %v", code, body)
		}
	}
	putDraft(t, s, tokens["ada"], "tokenbucket", reference...)
	if code, _, st := postCheck(t, s, tokens["ada"], "tokenbucket"); code != http.StatusOK {
		t.Fatalf("ada's check: %d %+v", code, st)
	}

	signInLearner(t, ctx, s, tokens["ada"])
	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/exercises/tokenbucket"))
	waitEditor(t, ctx)
	if got := browsertest.TextOf(t, ctx, "due-lines"); !strings.Contains(got, policy) {
		t.Errorf("the exercise's due line says %q; want the policy as %q", got, policy)
	}
	browsertest.ClickTestID(t, ctx, "editor-submit")
	browsertest.WaitTestID(t, ctx, "submit-line")
	if got := browsertest.TextOf(t, ctx, "submit-line"); !strings.HasPrefix(got, "Submission 1 ") {
		t.Errorf("the submit line says %q; want it to name her submission 1", got)
	}
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=submit-line]").dataset.state === "graded"`, chromedp.WithPollingTimeout(2*time.Minute)))
	line := browsertest.TextOf(t, ctx, "submit-line")
	for _, want := range []string{"Submission 1: ", "31 / 35", penalty, "counts 24.8"} {
		if !strings.Contains(line, want) {
			t.Errorf("the submit line once graded says %q; want %q in it", line, want)
		}
	}
	browsertest.Screenshot(t, ctx, "submit-line-graded")

	// A second submission, from the command's API.
	code, _, body := post(t, s, tokens["ada"], "tokenbucket", reference...)
	if code != http.StatusAccepted || body["number"] != float64(2) {
		t.Fatalf("ada's second submission: %d %v; want accepted, her number 2", code, body)
	}
	second := body["url"].(string)
	awaitGraded(t, s, tokens["ada"], int64(body["id"].(float64)), 2*time.Minute)

	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/me"), chromedp.WaitVisible(browsertest.TestID("learner-counted")))
	numbers := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("[data-testid=submissions] tbody tr td:first-child")).map((td) => td.textContent.trim())`)
	if strings.Join(numbers, ",") != "2,1" {
		t.Errorf("ada's list numbers her submissions %q; want 2,1 (hers, newest first)", numbers)
	}
	if got := browsertest.TextOf(t, ctx, "counted-tokenbucket"); !strings.Contains(got, "24.8 / 35") || !strings.Contains(got, "late") {
		t.Errorf("her score that counts reads %q; want 24.8 / 35, late", got)
	}
	if got := browsertest.TextOf(t, ctx, "submissions"); !strings.Contains(got, "counts 24.8") {
		t.Errorf("her list says %q; want each late submission's score that counts", got)
	}
	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+second), chromedp.WaitVisible(browsertest.TestID("submission-due")))
	if got := browsertest.TextOf(t, ctx, "submission-title"); !strings.HasSuffix(got, "submission 2") {
		t.Errorf("her second submission's page is titled %q; want submission 2", got)
	}
	if got := browsertest.TextOf(t, ctx, "submission-due"); !strings.Contains(got, penalty) || !strings.Contains(got, "counts 24.8 of 35") {
		t.Errorf("her submission's mark reads %q; want %q and counts 24.8 of 35", got, penalty)
	}
	// The instructor's pages word the policy the same way.
	if _, dash := get(t, client, s.URL+"/class/dashboard"); !strings.Contains(dash, "late work is accepted with "+policy) {
		t.Errorf("the dashboard does not word the policy as %q", policy)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
