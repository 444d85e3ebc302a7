package main

import (
	"context"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
	"ratelab/internal/lti/ltitest"
	"ratelab/internal/store/storetest"
)

// freeAddr returns a loopback address with a port free just now: the
// class's public URL is an argument of the server, so it is chosen before
// the server listens.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// frameURL returns the URL of the page's first child frame, "" while none.
func frameURL(t *testing.T, ctx context.Context) (string, string) {
	t.Helper()
	tree, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		t.Fatalf("reading the frames: %v", err)
	}
	if len(tree.FrameTree.ChildFrames) == 0 {
		return "", ""
	}
	f := tree.FrameTree.ChildFrames[0].Frame
	return f.URL, f.UnreachableURL
}

// TestLTIInBrowser is a learner's whole path from a learning platform, in
// Chromium: the platform's course page opens the class in a frame (the
// launch signs her in), she writes the exercise, checks it, submits it, and
// the platform's gradebook receives the score that counts. On SQLite the
// server grades; on Postgres a `labserver worker` does (River), and the
// server, which posts the score, hears of the grading through Postgres.
func TestLTIInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	storetest.Each(t, func(t *testing.T, db string) {
		db, _ = setupClassOn(t, db)
		ltiInBrowser(t, db, strings.HasPrefix(db, "postgres"))
	})
}

func ltiInBrowser(t *testing.T, db string, workers bool) {
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 5 * time.Minute})
	errs := browsertest.Console(ctx)
	axe := browsertest.RequireAxe(t)
	addr := freeAddr(t)
	tool := "http://" + addr
	p := ltitest.New(t, tool, time.Now)
	reg := p.Registration()
	if out, stderr, code := labserver(t, "", "lti", "add-platform", "--db", db, "--name", reg.Name, "--issuer", reg.Issuer, "--client-id", reg.ClientID,
		"--deployment", reg.Deployments[0], "--login-url", reg.AuthLoginURL, "--token-url", reg.TokenURL, "--jwks-url", reg.JWKSURL); code != 0 {
		t.Fatalf("lti add-platform: exit %d\n%s%s", code, out, stderr)
	}
	link := p.AddLink("link-tokenbucket", "tokenbucket", 35)
	flags := []string{"--no-bench", "--addr", addr, "--public-url", tool}
	if workers {
		flags = append(flags, "--workers", "0")
	}
	s := startClassServer(t, db, flags...)
	if workers {
		startWorker(t, db, "--no-bench")
	}

	// The course page frames the tool; the launch lands on the exercise.
	browsertest.Do(t, ctx, chromedp.Navigate(p.CourseURL("sub-ada", link.ID)))
	var at, unreachable string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		at, unreachable = frameURL(t, ctx)
		if strings.HasPrefix(at, tool+"/class/exercises/") || time.Now().After(deadline) {
			break
		}
	}
	if at != tool+"/class/exercises/tokenbucket" || unreachable != "" {
		t.Fatalf("the platform's frame shows %q (unreachable %q); want the class's tokenbucket page", at, unreachable)
	}
	browsertest.Screenshot(t, ctx, "lti-framed")

	// Her session is the class's: the rest of the path in the tab itself.
	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/exercises/tokenbucket"))
	waitEditor(t, ctx)
	if who := browsertest.TextOf(t, ctx, "whoami"); who != "Ada Lovelace" {
		t.Errorf("signed in as %q, want Ada Lovelace (the platform's name)", who)
	}
	var solution string
	for _, f := range solutionFiles(t, "tokenbucket") {
		if f.name == "tokenbucket.go" {
			solution = f.content
		}
	}
	typed := marker + "\n" + solution
	replaceCode(t, ctx, typed)
	want, _ := json.Marshal(typed)
	// Saved: the server's draft, read with her cookie, is what she typed.
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`(() => {
		fetch("/class/api/drafts/tokenbucket").then(r => r.json()).then(d => { window.__draft = d.files["tokenbucket.go"]; });
		return window.__draft === `+string(want)+` && document.querySelector("[data-testid=editor-status]").getAttribute("data-save-state") === "saved";
	})()`, chromedp.WithPollingTimeout(30*time.Second)))
	browsertest.ClickTestID(t, ctx, "editor-check")
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`(() => { const r = document.querySelector("[data-testid=editor-out] [data-testid=check-result] [data-testid=score]"); return r && r.textContent.trim().startsWith("31"); })()`,
		chromedp.WithPollingTimeout(2*time.Minute)))
	if got := p.Scores(link.LineItem); len(got) != 0 {
		t.Errorf("the platform's gradebook after a check holds %+v; want nothing (a check counts nowhere)", got)
	}
	browsertest.ClickTestID(t, ctx, "editor-submit")
	browsertest.WaitTestID(t, ctx, "submission-link")

	// The score arrives in the platform's gradebook by itself.
	var got []ltitest.Score
	for deadline := time.Now().Add(3 * time.Minute); len(got) == 0 && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		got = p.Scores(link.LineItem)
	}
	if len(got) != 1 || got[0].UserID != "sub-ada" || got[0].ScoreGiven != 31 || got[0].GradingProgress != "FullyGraded" {
		t.Fatalf("the platform's gradebook holds %+v; want ada's 31, once, fully graded", got)
	}

	// The instructor, launched from the platform too, sees it posted.
	browsertest.Do(t, ctx, chromedp.Navigate(p.StartURL("sub-teacher", link.ID)))
	browsertest.WaitTestID(t, ctx, "whoami")
	browsertest.Do(t, ctx, chromedp.Navigate(s.URL+"/class/lti"))
	row := "lti-score-Ada Lovelace-tokenbucket"
	browsertest.WaitTestID(t, ctx, row)
	if state := browsertest.Eval[string](t, ctx, `document.querySelector(`+strconv.Quote("[data-testid=\""+row+"\"]")+`).dataset.state`); state != "posted" {
		t.Errorf("the instructor's page shows ada's score %s, want posted", state)
	}
	if r := browsertest.TextOf(t, ctx, "lti-roster"); !strings.Contains(r, "Grace Hopper") || !strings.Contains(r, "not launched yet") {
		t.Errorf("the roster reads %q; want Grace Hopper, not launched yet", r)
	}
	browsertest.Screenshot(t, ctx, "lti-instructor")
	browsertest.CheckA11y(t, ctx, axe, "the instructor's page of learning platforms")

	// Deep linking: the picker, and the form that takes the picks back to
	// the platform (which the page's policy lets post there).
	browsertest.Do(t, ctx, chromedp.Navigate(p.StartURL("sub-teacher", "deeplink")))
	browsertest.WaitTestID(t, ctx, "picker")
	browsertest.CheckA11y(t, ctx, axe, "the deep-linking picker")
	browsertest.ClickTestID(t, ctx, "pick-week-2")
	browsertest.ClickTestID(t, ctx, "pick-gcra")
	browsertest.Screenshot(t, ctx, "lti-picker")
	browsertest.ClickTestID(t, ctx, "picker-submit")
	browsertest.WaitTestID(t, ctx, "return-form")
	browsertest.CheckA11y(t, ctx, axe, "the deep-linking return")
	browsertest.ClickTestID(t, ctx, "return-submit")
	browsertest.WaitTestID(t, ctx, "deep-linked")
	var labels []string
	for _, li := range p.LineItems() {
		labels = append(labels, li.Label)
	}
	if strings.Join(labels, ",") != "tokenbucket,ratelab: GCRA,ratelab: Bucketed sliding window" {
		t.Errorf("the platform's line items after deep linking = %v; want gcra and week 2's sliding window added", labels)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
