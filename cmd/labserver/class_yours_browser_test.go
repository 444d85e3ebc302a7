package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// TestClassYoursInBrowser: a learner whose checked token bucket grants
// every call opens week 1's lesson from their class home, waits for the
// server to build their code, switches week 1's visualization to exact
// refill and Yours and sees their bucket refuse nothing, where the
// reference's refuses, and their GCRA, never submitted, as the stub.
func TestClassYoursInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Width: 1280, Height: 1000, Timeout: 4 * time.Minute})
	errs := browsertest.Console(ctx)
	axe := browsertest.RequireAxe(t)
	static := t.TempDir()
	if a := browsertest.BuildAssets(context.Background(), static); a.Err != nil || !a.Wasm {
		t.Fatalf("building the lab's assets: %v", a.Err)
	}
	db, tokens := setupClass(t, "ada")
	s := startClassServer(t, db, "--no-bench", "--static-dir", static, "--yours-cache", t.TempDir())

	// ada's bucket grants everything: it compiles, and grades badly. She
	// checks it (a draft, checked: no submission), as the editor does.
	generous := tokenbucketWith(t, "func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {",
		"func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {\n\treturn true // ada's generous bucket\n", "")
	if code, body := putDraft(t, s, tokens["ada"], "tokenbucket", generous...); code != http.StatusOK {
		t.Fatalf("ada's draft: %d %v", code, body)
	}
	if code, _, st := postCheck(t, s, tokens["ada"], "tokenbucket"); code != http.StatusOK || st.Result == nil {
		t.Fatalf("ada's check: %d %+v; want it graded", code, st)
	}
	if n := countSubmissions(t, s, tokens["ada"]); n != 0 {
		t.Fatalf("ada has %d submissions after a check; want none", n)
	}

	browsertest.Do(t, ctx,
		chromedp.Navigate(s.URL+"/class/login"),
		chromedp.WaitVisible(browsertest.TestID("learner-login")),
		chromedp.SendKeys(`[data-testid=learner-login] input[name=token]`, tokens["ada"]),
		chromedp.Submit(`[data-testid=learner-login] input[name=token]`),
	)
	browsertest.WaitTestID(t, ctx, "class-lessons")
	browsertest.CheckA11y(t, ctx, axe, "the learner's page with the class's lessons")
	browsertest.ColorScheme(t, ctx, "light")
	browsertest.Screenshot(t, ctx, "class-me-lessons")
	// The page's answers about her build are held at "building" until the
	// test lets them through: the page as it is while the server builds.
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: holdYours}); err != nil {
		t.Fatal(err)
	}
	browsertest.Do(t, ctx, chromedp.Click(`[data-testid="class-lesson-week-1"]`))
	browsertest.WaitTestID(t, ctx, "viz-naive-refill")

	mount := `document.querySelector("[data-testid=viz-naive-refill]")`
	figure := func(id string) string {
		return mount + `.querySelector("[data-testid=` + id + `]")`
	}
	num := func(id string) string { return `+(` + figure(id) + `.textContent.replace(/\D/g, "") || "0")` }
	set := func(control, value string) {
		t.Helper()
		browsertest.Eval[bool](t, ctx, `(() => { const el = `+figure(control)+`; el.value = "`+value+`"; el.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	}
	wait := func(what, cond string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(90*time.Second))); err != nil {
			dump := browsertest.Eval[string](t, ctx, `JSON.stringify([document.querySelector("[data-testid=yours-state]").textContent, `+figure("impl-status")+`.textContent, `+figure("viz-error")+`.textContent, `+
				figure("accepted-tokenbucket")+`.textContent, `+figure("refused-tokenbucket")+`.textContent, `+figure("status-tokenbucket")+`.textContent, `+figure("status-gcra")+`.textContent])`)
			t.Fatalf("waiting for %s: %v\nthe figures: %s", what, err, dump)
		}
	}
	browsertest.Do(t, ctx, chromedp.WaitVisible(`[data-testid=viz-naive-refill] [data-testid=viz-ready]`))
	wait("the state line to say it builds", `document.querySelector("[data-testid=yours-state]").dataset.state === "building"`)
	if got := browsertest.TextOf(t, ctx, "yours-state"); !strings.Contains(got, "building your code") {
		t.Errorf("the state line while building = %q", got)
	}
	// Under exact refill (under naive refill the bucket's lane is the
	// lab's own naive one), the reference refuses; Yours waits for the
	// build, and Reference is not held up meanwhile.
	set("refill", "exact")
	wait("the reference to refuse", num("refused-tokenbucket")+` > 0`)
	set("impl", "yours")
	wait("Yours to wait for the build", figure("impl-status")+`.textContent === "Yours: waiting for your code's build…"`)
	browsertest.Do(t, ctx, chromedp.ScrollIntoView(`[data-testid=viz-naive-refill]`))
	browsertest.ScreenshotViewport(t, ctx, "class-yours-building")
	set("impl", "reference")
	wait("the reference while the build waits", figure("impl-status")+`.textContent === "Reference" && `+num("refused-tokenbucket")+` > 0`)
	set("impl", "yours")
	wait("Yours to wait for the build again", figure("impl-status")+`.textContent === "Yours: waiting for your code's build…"`)
	browsertest.Eval[bool](t, ctx, `(sessionStorage.setItem("releaseYours", "1"), true)`)

	// The server builds her code (seconds; the first build on a machine,
	// with an empty Go build cache, about 20 s); Yours starts on it.
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=yours-state]").dataset.state === "ready"`,
		chromedp.WithPollingTimeout(2*time.Minute)))
	if got := browsertest.TextOf(t, ctx, "yours-state"); !strings.Contains(got, "Yours runs your code") {
		t.Errorf("the state line once built = %q", got)
	}
	// Under exact refill (under naive refill the bucket's lane is the
	// lab's own naive one), the reference refuses, Yours (ada's) never does.
	wait("ada's bucket to run", figure("impl-status")+`.textContent.startsWith("Yours") && `+num("accepted-tokenbucket")+` > 1000`)
	// Her code, not the server's stub (which panics "not implemented")
	// nor the reference (which refuses).
	if n := browsertest.Eval[float64](t, ctx, num("refused-tokenbucket")); n != 0 {
		t.Errorf("ada's bucket, which grants every call, refused %v", n)
	}
	wait("the stub GCRA's note", figure("status-gcra")+`.textContent.includes("not implemented")`)
	browsertest.Do(t, ctx, chromedp.ScrollIntoView(`[data-testid=viz-naive-refill]`))
	browsertest.ScreenshotViewport(t, ctx, "class-yours-running")
	browsertest.Do(t, ctx, chromedp.ScrollIntoView(`[data-testid=yours-state]`))
	browsertest.ScreenshotViewport(t, ctx, "class-yours-ready")
	browsertest.CheckA11y(t, ctx, axe, "a class lesson with the learner's build ready")
	browsertest.ColorScheme(t, ctx, "light")

	set("impl", "reference")
	wait("the reference again", figure("impl-status")+`.textContent === "Reference" && `+num("refused-tokenbucket")+` > 0`)

	// A GCRA with a file only GOOS=js would build (which the grading would
	// skip and Yours compile) is refused at the upload, saying what to do:
	// both builds compile the same files, and Yours still runs the GCRA's
	// stub beside ada's bucket.
	gcra := append(solutionFiles(t, "gcra"), upload{"broken_js.go", "package gcra\n\nvar broken int = \"not an int\"\n"})
	code, _, body := post(t, s, tokens["ada"], "gcra", gcra...)
	if problems := fmt.Sprint(body["problems"]); code != http.StatusUnprocessableEntity || !strings.Contains(problems, "broken_js.go") || !strings.Contains(problems, "rename it") {
		t.Fatalf("ada's gcra with broken_js.go: %d %v; want 422 naming the file and saying to rename it", code, body)
	}
	browsertest.Do(t, ctx, chromedp.Reload())
	browsertest.Do(t, ctx, chromedp.WaitVisible(`[data-testid=viz-naive-refill] [data-testid=viz-ready]`))
	set("refill", "exact")
	set("impl", "yours")
	wait("ada's bucket beside the GCRA's stub", figure("impl-status")+`.textContent.startsWith("Yours") && `+num("accepted-tokenbucket")+` > 1000 && `+
		figure("status-gcra")+`.textContent.includes("not implemented")`)
	if n := browsertest.Eval[float64](t, ctx, num("refused-tokenbucket")); n != 0 {
		t.Errorf("ada's bucket, which grants every call, refused %v", n)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// holdYours makes the page's requests for the learner's build answer
// "building" until sessionStorage's releaseYours is set.
const holdYours = `(() => {
	const real = window.fetch;
	window.fetch = (input, init) => {
		if (String(input).includes("/class/api/yours") && !sessionStorage.getItem("releaseYours")) {
			return Promise.resolve(new Response(JSON.stringify({state: "building"}), {headers: {"Content-Type": "application/json"}}));
		}
		return real(input, init);
	};
})();`

// waitGraded waits until the submission at url (as POST answered it) is
// graded.
func waitGraded(t *testing.T, s *classServer, token string, url any) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		req, _ := http.NewRequest(http.MethodGet, s.URL+fmt.Sprint(url), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var sub struct {
			State  string          `json:"state"`
			Result json.RawMessage `json:"result"`
		}
		json.NewDecoder(resp.Body).Decode(&sub)
		resp.Body.Close()
		if sub.State == "done" {
			if string(sub.Result) == "null" || len(sub.Result) == 0 {
				t.Fatalf("the submission was not graded: %+v", sub)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the submission at %v is still %s", url, sub.State)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
