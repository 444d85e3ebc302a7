package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// marker opens the draft typed in the browser: the first line of the
// file, so it is drawn (CodeMirror draws only the lines in view).
const marker = "// typed in the browser"

// TestClassEditorInBrowser is a learner's whole loop in the browser: sign
// in, open an exercise, type, reload (the code is still there), Check (the
// report beside the editor), break the build and Check (the line is
// marked), Submit (a submission, graded), and a second tab sees the draft.
// The page around the editor, with a check's report, passes axe-core's
// WCAG rules.
func TestClassEditorInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 4 * time.Minute})
	errs := browsertest.Console(ctx)
	axe := browsertest.RequireAxe(t)
	db, tokens := setupClass(t, "ada")
	s := startClassServer(t, db, "--no-bench")
	browsertest.Do(t, ctx,
		chromedp.Navigate(s.URL+"/class/login"),
		chromedp.WaitVisible(browsertest.TestID("learner-login")),
		chromedp.SendKeys(`[data-testid=learner-login] input[name=token]`, tokens["ada"]),
		chromedp.Submit(`[data-testid=learner-login] input[name=token]`),
	)
	browsertest.WaitTestID(t, ctx, "write-tokenbucket")
	href := browsertest.Eval[string](t, ctx, `document.querySelector("[data-testid=write-tokenbucket]").href`)
	if !strings.HasSuffix(href, "/class/exercises/tokenbucket") {
		t.Fatalf("the learner's page links the editor as %q", href)
	}
	browsertest.Do(t, ctx, chromedp.Navigate(href))
	waitEditor(t, ctx)
	// The page links the week's lesson, whose Yours runs what she checks
	// (TestClassYoursInBrowser runs it).
	if watch := browsertest.Eval[string](t, ctx, `document.querySelector("[data-testid=watch-yours-link]").getAttribute("href")`); watch != "/class/lessons/week-1" {
		t.Errorf("the editor page links the lesson as %q; want /class/lessons/week-1", watch)
	}
	if got := editorText(t, ctx); !strings.Contains(got, "package tokenbucket") || strings.Contains(got, marker) {
		t.Fatalf("tokenbucket.go before any save shows %q; want the stub's", got)
	}

	// Type: the reference, under a marker line.
	var solution string
	for _, f := range solutionFiles(t, "tokenbucket") {
		if f.name == "tokenbucket.go" {
			solution = f.content
		}
	}
	typed := marker + "\n" + solution
	replaceCode(t, ctx, typed)
	waitSaved(t, ctx, s, tokens["ada"], typed)
	browsertest.Do(t, ctx, chromedp.Reload())
	waitEditor(t, ctx)
	if got := editorText(t, ctx); !strings.Contains(got, marker) {
		t.Fatalf("the editor after a reload shows %q; want the typed code", got)
	}

	// Check: the report shows beside the editor.
	browsertest.ClickTestID(t, ctx, "editor-check")
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`(() => { const r = document.querySelector("[data-testid=editor-out] [data-testid=check-result] [data-testid=score]"); return r && r.textContent.trim().startsWith("31"); })()`,
		chromedp.WithPollingTimeout(2*time.Minute)))
	browsertest.Screenshot(t, ctx, "editor-checked")
	browsertest.CheckA11y(t, ctx, axe, "the editor with a check's report")
	if n := countSubmissions(t, s, tokens["ada"]); n != 0 {
		t.Errorf("%d submissions after a check; want none", n)
	}

	// A compile error on line 3 of the file: Check marks that line.
	broken := marker + "\npackage tokenbucket\nfunc New(capacity, ratePerSec, nowNs uint64) *TokenBucket { return 42 }\n"
	replaceCode(t, ctx, broken)
	waitSaved(t, ctx, s, tokens["ada"], broken)
	browsertest.ClickTestID(t, ctx, "editor-check")
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector(".cm-lintRange-error") !== null`, chromedp.WithPollingTimeout(2*time.Minute)))
	if line := browsertest.Eval[string](t, ctx, `document.querySelector(".cm-lintRange-error").closest(".cm-line").textContent`); !strings.Contains(line, "func New(") {
		t.Errorf("the marked line is %q; want line 3, func New(…)", line)
	}
	browsertest.Screenshot(t, ctx, "editor-compile-error")
	browsertest.CheckA11y(t, ctx, axe, "the editor with a compile error marked")

	// Submit the reference again: a submission, graded. The marked line
	// is gone with the code replaced, and so is its count on the tab.
	replaceCode(t, ctx, typed)
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll(".cm-lintRange-error, .editor-tab-errors").length`); n != 0 {
		t.Errorf("%d error marks left after the marked code was replaced; want none", n)
	}
	waitSaved(t, ctx, s, tokens["ada"], typed)
	browsertest.ClickTestID(t, ctx, "editor-submit")
	browsertest.WaitTestID(t, ctx, "submission-link")
	href = browsertest.Eval[string](t, ctx, `document.querySelector("[data-testid=submission-link]").getAttribute("href")`)
	var id int64
	if _, err := fmt.Sscanf(href, "/class/submissions/%d", &id); err != nil {
		t.Fatalf("the submission's link is %q: %v", href, err)
	}
	if st := awaitGraded(t, s, tokens["ada"], id, 2*time.Minute); st.Result == nil || st.Result.Score != 31 {
		t.Errorf("the submission from the editor: %+v; want graded 31 points", st)
	}
	if n := countSubmissions(t, s, tokens["ada"]); n != 1 {
		t.Errorf("%d submissions on ada's page; want the one submitted (checks are none)", n)
	}

	// A second tab of the same browser sees the draft.
	tab2, cancel := chromedp.NewContext(ctx)
	defer cancel()
	browsertest.Do(t, tab2, chromedp.Navigate(s.URL+"/class/exercises/tokenbucket"))
	waitEditor(t, tab2)
	if got := editorText(t, tab2); !strings.Contains(got, marker) || !strings.Contains(got, "func New(") {
		t.Errorf("a second tab shows %q; want the draft", got)
	}

	// Another machine saves the draft while this tab still edits from the
	// version before: this tab's next save is refused (it names its base),
	// the page offers the choice, and "Keep mine" saves over the other.
	elsewhere := marker + "\npackage tokenbucket\n// saved on another machine\n"
	if code, body := putDraft(t, s, tokens["ada"], "tokenbucket", upload{"tokenbucket.go", elsewhere}); code != http.StatusOK {
		t.Fatalf("the other machine's save: %d %v", code, body)
	}
	mine := marker + "\n" + solution + "// typed here after\n"
	replaceCode(t, ctx, mine)
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=editor-status]").getAttribute("data-save-state") === "conflict"`,
		chromedp.WithPollingTimeout(30*time.Second)))
	if got := draftOf(t, s, tokens["ada"]).Files["tokenbucket.go"]; got != elsewhere {
		t.Fatalf("the draft after a save from a stale version holds %q; want the other machine's, untouched", got)
	}
	if got := browsertest.TextOf(t, ctx, "editor-status"); !strings.Contains(got, "another tab or machine") {
		t.Errorf("the save line during the conflict says %q; want it to name another tab or machine", got)
	}
	browsertest.Screenshot(t, ctx, "editor-conflict")
	browsertest.ClickTestID(t, ctx, "editor-keep")
	waitSaved(t, ctx, s, tokens["ada"], mine)
	// Chromium logs the refused save's 409 itself, as it logs any error
	// status; that one is expected, and nothing else may be there.
	var unexpected []string
	for _, e := range errs() {
		if !strings.Contains(e, "status of 409 (Conflict)") {
			unexpected = append(unexpected, e)
		}
	}
	if len(unexpected) > 0 {
		t.Errorf("console errors: %q", unexpected)
	}
}

// waitEditor waits until the editor has loaded the draft.
func waitEditor(t *testing.T, ctx context.Context) {
	t.Helper()
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-editor][data-editor-ready] .cm-content") !== null`,
		chromedp.WithPollingTimeout(30*time.Second)))
}

// openFile opens tokenbucket.go's tab (the stub's doc.go comes first).
func openFile(t *testing.T, ctx context.Context) {
	t.Helper()
	browsertest.Do(t, ctx, chromedp.Click(`[role=tab][data-file="tokenbucket.go"]`))
}

// editorText is the code the editor draws of tokenbucket.go (the lines in
// view).
func editorText(t *testing.T, ctx context.Context) string {
	t.Helper()
	openFile(t, ctx)
	return browsertest.Eval[string](t, ctx, `Array.from(document.querySelectorAll(".cm-content .cm-line")).map(l => l.textContent).join("\n")`)
}

// replaceCode selects tokenbucket.go's code and types text over it, as a
// paste or an input method does (one insertion, not key by key).
func replaceCode(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	openFile(t, ctx)
	browsertest.Eval[bool](t, ctx, `(() => { document.querySelector(".cm-content").focus(); return document.activeElement.classList.contains("cm-content"); })()`)
	browsertest.Do(t, ctx, chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	if _, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		t.Fatalf("typing: %v", err)
	}
	first, _, _ := strings.Cut(text, "\n")
	if got := editorText(t, ctx); !strings.HasPrefix(got, first) {
		t.Fatalf("after typing, the editor shows %q; want it to begin with %q", got, first)
	}
}

// waitSaved waits until the server holds want as the draft's
// tokenbucket.go (the editor saves after a pause in the typing), then
// until the editor says every edit is saved.
func waitSaved(t *testing.T, ctx context.Context, s *classServer, token, want string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); draftOf(t, s, token).Files["tokenbucket.go"] != want; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the draft on the server is not what was typed after 30 s: %+v", draftOf(t, s, token))
		}
	}
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=editor-status]").getAttribute("data-save-state") === "saved"`,
		chromedp.WithPollingTimeout(30*time.Second)))
}

type draftState struct {
	Files   map[string]string `json:"files"`
	Version int64             `json:"version"`
}

func draftOf(t *testing.T, s *classServer, token string) draftState {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/class/api/drafts/tokenbucket", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d draftState
	json.NewDecoder(resp.Body).Decode(&d)
	return d
}
