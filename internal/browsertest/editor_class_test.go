package browsertest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"ratelab/web"
	"ratelab/web/page"
)

// classStub is a stand-in for the class server's side of the editor's
// contract (helper-common's JSON API): a learner's draft of gcra kept in
// memory, Check answering a compile error and then 429, Submit taking the
// multipart form, and the submission's live view and JSON, graded late.
// Every PUT and POST must carry the page's CSRF token.
type classStub struct {
	mu      sync.Mutex
	files   map[string]string
	version int
	puts    int
	checks  int
	submits []map[string]string // the files of each submission
	csrfBad int                 // requests without the token
	failPut bool                // answer PUTs 503, as a server away
}

const stubCSRF = "csrf-token-123"

func (s *classStub) handler(t *testing.T) http.Handler {
	mux := http.NewServeMux()
	static := http.FileServerFS(web.Static(""))
	mux.Handle("GET /static/", http.StripPrefix("/static/", static))
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /class/exercises/gcra", func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
			`<title>gcra</title><link rel="stylesheet" href="/static/lab.css"></head><body><main id="main" class="wrap"><h1 data-testid="title">GCRA</h1>`)
		if err := page.Editor(page.EditorProps{Exercise: "gcra", Mode: "class", CSRF: stubCSRF, Task: true}).Render(r.Context(), &b); err != nil {
			t.Error(err)
		}
		b.WriteString(`</main></body></html>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b.Bytes())
	})
	csrf := func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("X-CSRF-Token") != stubCSRF {
			s.mu.Lock()
			s.csrfBad++
			s.mu.Unlock()
			http.Error(w, `{"error":"bad CSRF token"}`, http.StatusForbidden)
			return false
		}
		return true
	}
	jsonReply := func(w http.ResponseWriter, code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("GET /class/api/drafts/gcra", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		jsonReply(w, http.StatusOK, map[string]any{"exercise": "gcra", "files": s.files, "version": s.version, "updated_at": "2027-02-01T10:00:00Z"})
	})
	mux.HandleFunc("PUT /class/api/drafts/gcra", func(w http.ResponseWriter, r *http.Request) {
		if !csrf(w, r) {
			return
		}
		var body struct {
			Files map[string]string `json:"files"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			jsonReply(w, http.StatusBadRequest, map[string]any{"error": err.Error()})
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.failPut {
			jsonReply(w, http.StatusServiceUnavailable, map[string]any{"error": "the server is restarting"})
			return
		}
		s.files, s.version, s.puts = body.Files, s.version+1, s.puts+1
		jsonReply(w, http.StatusOK, map[string]any{"version": s.version})
	})
	mux.HandleFunc("POST /class/api/checks", func(w http.ResponseWriter, r *http.Request) {
		if !csrf(w, r) {
			return
		}
		s.mu.Lock()
		s.checks++
		n := s.checks
		s.mu.Unlock()
		if n > 1 {
			w.Header().Set("Retry-After", "42")
			jsonReply(w, http.StatusTooManyRequests, map[string]any{"error": "check budget spent"})
			return
		}
		jsonReply(w, http.StatusOK, map[string]any{"check": 5, "result": map[string]any{
			"id": "gcra", "title": "GCRA", "status": "error", "score": 0, "max_score": 25,
			"message": "does not build:\n/sandbox/src/ratelab/exercises/gcra/gcra.go:3:2: undefined: oops",
			"checks":  []map[string]any{{"id": "gcra/api", "title": "API", "status": "error", "score": 0, "max_score": 2, "message": "not run: the code does not build."}},
		}})
	})
	mux.HandleFunc("POST /class/submissions", func(w http.ResponseWriter, r *http.Request) {
		if !csrf(w, r) {
			return
		}
		if r.Header.Get("Accept") != "application/json" {
			http.Error(w, "want Accept: application/json", http.StatusBadRequest)
			return
		}
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if r.FormValue("_csrf") != stubCSRF || r.FormValue("exercise") != "gcra" {
			http.Error(w, "want the _csrf and exercise fields", http.StatusBadRequest)
			return
		}
		files := map[string]string{}
		for _, fh := range r.MultipartForm.File["files"] {
			f, _ := fh.Open()
			b, _ := io.ReadAll(f)
			f.Close()
			files[fh.Filename] = string(b)
		}
		s.mu.Lock()
		s.submits = append(s.submits, files)
		s.mu.Unlock()
		jsonReply(w, http.StatusAccepted, map[string]any{"id": 7, "number": 2, "exercise": "gcra", "url": "/class/submissions/7", "live": "/class/submissions/7/live"})
	})
	// The submission's live view says it is graded at once; its JSON is
	// the grade, late.
	mux.HandleFunc("GET /class/submissions/7/live", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		wsjson.Write(r.Context(), c, map[string]any{"type": "grade", "submission": 7, "exercise": "gcra"})
		c.Close(websocket.StatusNormalClosure, "graded")
	})
	mux.HandleFunc("GET /class/submissions/7", func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, http.StatusOK, map[string]any{"id": 7, "number": 2, "exercise": "gcra", "state": "done",
			"result": map[string]any{"id": "gcra", "status": "passed", "score": 25, "max_score": 25},
			"late":   "late by 5 h (−10% per started day: 1 day late, −10%)", "counts": 22.5})
	})
	return mux
}

// The editor in class mode against a stub of the class server's API: it
// opens the learner's draft with the task beside it, saves what is typed
// with PUT (the CSRF token in its header), Check shows the report below
// and marks the compile error on its line and tab, a spent check budget
// shows the Retry-After wait, and Submit posts the draft's files and
// links to the submission.
func TestEditorClassMode(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	stub := &classStub{files: map[string]string{
		"doc.go":  "// Package gcra is the exercise: build a GCRA.\n//\n// It must agree with the token bucket.\npackage gcra\n",
		"gcra.go": "package gcra\n\ntype GCRA struct{}\n",
	}}
	srv := httptest.NewServer(stub.handler(t))
	defer srv.Close()
	ctx := NewBrowser(t, BrowserOptions{Width: 1400, Height: 900})
	console := Console(ctx)
	p := editorPage{t, ctx}
	Do(t, ctx, chromedp.Navigate(srv.URL+"/class/exercises/gcra"))
	p.poll("the editor", `document.querySelector("[data-editor-ready]") ? {} : null`, 20*time.Second)
	if task := TextOf(t, ctx, "editor-task"); !strings.Contains(task, "Package gcra is the exercise: build a GCRA.") || !strings.Contains(task, "It must agree with the token bucket.") {
		t.Errorf("the task beside the editor = %q; want the stub's package doc comment", task)
	}

	p.open("gcra.go")
	typed := "package gcra\n\ntype GCRA struct{}\n\nfunc f() { oops }\n"
	p.typeAndSave(typed, 20*time.Second)
	stub.mu.Lock()
	saved, puts := stub.files["gcra.go"], stub.puts
	stub.mu.Unlock()
	if saved != typed || puts == 0 {
		t.Fatalf("the draft after the editor said saved = %q after %d PUTs; want what was typed", saved, puts)
	}

	// Check: the report below, the compile error marked on line 3 (the
	// sandbox's path reduced to the file's name) and on the tab.
	ClickTestID(t, ctx, "editor-check")
	report := p.poll("the check's report", `(() => {
		const r = document.querySelector('[data-testid="check-report"]');
		const tab = document.querySelector('[data-editor] [role=tab][data-file="gcra.go"]');
		const mark = document.querySelector('[data-editor] .cm-lintRange-error');
		return r && mark ? {report: r.textContent, tab: tab.textContent, line: mark.closest(".cm-line").textContent} : null;
	})()`, 20*time.Second)
	if !strings.Contains(report["report"].(string), "undefined: oops") || !strings.Contains(report["tab"].(string), "1 error") || report["line"] != "type GCRA struct{}" {
		t.Errorf("after Check: report %q, tab %q, marked line %q; want the compiler's message, 1 error on gcra.go, line 3 marked", report["report"], report["tab"], report["line"])
	}
	ScreenshotViewport(t, ctx, "checked")
	CheckA11y(t, ctx, RequireAxe(t), "the class editor with a check's report")

	// The check budget is spent: the wait is said.
	ClickTestID(t, ctx, "editor-check")
	wait := p.poll("the check budget's wait", `(() => {
		const w = document.querySelector('[data-testid="check-wait"]');
		return w ? {text: w.textContent} : null;
	})()`, 20*time.Second)
	if !strings.Contains(wait["text"].(string), "42 s") {
		t.Errorf("a 429 with Retry-After: 42 says %q; want the wait", wait["text"])
	}

	// Submit: the draft's files, as a multipart form, and a link back.
	ClickTestID(t, ctx, "editor-submit")
	WaitTestID(t, ctx, "submission-link")
	if href := Eval[string](t, ctx, `document.querySelector('[data-testid="submission-link"]').getAttribute("href")`); href != "/class/submissions/7" {
		t.Errorf("the submission's link = %q; want /class/submissions/7", href)
	}
	stub.mu.Lock()
	if len(stub.submits) != 1 || stub.submits[0]["gcra.go"] != typed || stub.submits[0]["doc.go"] == "" {
		t.Errorf("submissions = %v; want one holding the draft's two files", stub.submits)
	}
	if stub.csrfBad != 0 {
		t.Errorf("%d requests came without the CSRF token", stub.csrfBad)
	}
	stub.mu.Unlock()
	// The line under the editor turns into the grade, with its penalty.
	p.poll("the submit line's grade", `document.querySelector('[data-testid="submit-line"][data-state="graded"]') ? {} : null`, 20*time.Second)
	if got := TextOf(t, ctx, "submit-line"); got != "Submission 2: passed · 25 / 25 · late by 5 h (−10% per started day: 1 day late, −10%): counts 22.5" {
		t.Errorf("the submit line once graded = %q; want the grade, its penalty and the score that counts", got)
	}
	ScreenshotViewport(t, ctx, "submitted")

	// Another tab saves the draft; back on this page, the editor reads it
	// and, having nothing unsaved, shows it and says so.
	fromOtherTab := "package gcra\n\n// from the other tab\n"
	saveElsewhere := func(text string) {
		stub.mu.Lock()
		stub.files = map[string]string{"doc.go": stub.files["doc.go"], "gcra.go": text}
		stub.version++
		stub.mu.Unlock()
	}
	saveElsewhere(fromOtherTab)
	Eval[bool](t, ctx, `(window.dispatchEvent(new Event("focus")), true)`)
	reloaded := p.poll("the draft saved elsewhere", `(() => {
		const s = document.querySelector('[data-testid="editor-status"]');
		return s && s.textContent.startsWith("reloaded:") ? {text: s.textContent} : null;
	})()`, 20*time.Second)
	if got := p.text("gcra.go"); got != fromOtherTab || !strings.Contains(reloaded["text"].(string), "gcra.go") {
		t.Errorf("after another tab saved, the page says %q and shows %q; want the other tab's draft", reloaded["text"], got)
	}

	// This page has edits the server cannot take yet (503), and another
	// tab saves: back here, the page keeps its text and offers the choice;
	// Keep mine saves it over the other once the server is back.
	stub.mu.Lock()
	stub.failPut = true
	stub.mu.Unlock()
	mine := fromOtherTab + "// mine\n"
	p.replaceAll(mine)
	if got := p.waitState("unsaved", 20*time.Second); !strings.Contains(got, "the server is restarting") || !strings.Contains(got, "trying again") {
		t.Errorf("a 503 on save says %q; want the server's reason and that it tries again", got)
	}
	saveElsewhere(fromOtherTab + "// theirs\n")
	Eval[bool](t, ctx, `(window.dispatchEvent(new Event("focus")), true)`)
	p.waitState("conflict", 20*time.Second)
	if got := TextOf(t, ctx, "editor-reload"); got != "Take the saved draft" {
		t.Errorf("the offer's first button = %q; want Take the saved draft", got)
	}
	if got := p.text("gcra.go"); got != mine {
		t.Errorf("the page shows %q after the other tab's save; want its own unsaved text kept", got)
	}
	stub.mu.Lock()
	stub.failPut = false
	stub.mu.Unlock()
	before := p.version()
	ClickTestID(t, ctx, "editor-keep")
	p.waitSaved(before, 20*time.Second)
	stub.mu.Lock()
	if stub.files["gcra.go"] != mine {
		t.Errorf("the draft after Keep mine = %q; want this page's text", stub.files["gcra.go"])
	}
	stub.mu.Unlock()
	Phone(t, ctx)
	ScreenshotViewport(t, ctx, "phone")
	// The browser logs the 429 and the 503s it was answered, which the
	// page expects.
	if errs := consoleErrorsBut(console(), "(Too Many Requests)", "(Service Unavailable)"); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
