package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// api sends a JSON request to the class's API as a learner's program does
// (bearer token; token "" sends none).
func (f *classFixture) api(t *testing.T, method, path, token, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, f.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return f.browser(t).do(req)
}

type draftReply struct {
	Exercise  string            `json:"exercise"`
	Files     map[string]string `json:"files"`
	Version   int64             `json:"version"`
	UpdatedAt string            `json:"updated_at"`
	Error     string            `json:"error"`
	Problems  []string          `json:"problems"`
}

func decode[T any](t *testing.T, r reply) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(r.body), &v); err != nil {
		t.Fatalf("answer %d is not JSON: %v\n%s", r.code, err, r.body)
	}
	return v
}

func draftBody(files map[string]string) string {
	b, _ := json.Marshal(map[string]any{"files": files})
	return string(b)
}

func TestClassDrafts(t *testing.T) { storetest.Each(t, testClassDrafts) }

func testClassDrafts(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	const path = "/class/api/drafts/tokenbucket"
	r := f.api(t, http.MethodGet, path, adaToken, "")
	d := decode[draftReply](t, r)
	if r.code != http.StatusOK || d.Version != 0 || d.Exercise != "tokenbucket" || !strings.Contains(d.Files["tokenbucket.go"], "package tokenbucket") || d.UpdatedAt != "" {
		t.Fatalf("GET %s before any save = %d %+v; want 200, version 0, the stub's files", path, r.code, d)
	}
	for name := range d.Files {
		if strings.HasSuffix(name, "_test.go") {
			t.Errorf("the stub's draft holds %s; want no test files", name)
		}
	}
	if r := f.api(t, http.MethodPut, path, adaToken, draftBody(map[string]string{"tokenbucket.go": okSource})); r.code != http.StatusOK || decode[draftReply](t, r).Version != 1 {
		t.Fatalf("PUT %s = %d %s; want 200 version 1", path, r.code, r.body)
	}
	r = f.api(t, http.MethodGet, path, adaToken, "")
	d = decode[draftReply](t, r)
	if r.code != http.StatusOK || d.Version != 1 || len(d.Files) != 1 || d.Files["tokenbucket.go"] != okSource || d.UpdatedAt != classNow.Format(time.RFC3339) {
		t.Errorf("GET %s after a save = %d %+v; want version 1 with the saved file, updated %s", path, r.code, d, classNow.Format(time.RFC3339))
	}
	if d := decode[draftReply](t, f.api(t, http.MethodGet, path, bobToken, "")); d.Version != 0 {
		t.Errorf("bob's draft = %+v; want his own, the stub (ada's is hers)", d)
	}

	refusals := []struct {
		name, method, path, token, body string
		code                            int
		want                            string
	}{
		{"a folder in a name", http.MethodPut, path, adaToken, draftBody(map[string]string{"../x.go": "package tokenbucket\n"}), 422, "folder"},
		{"no files", http.MethodPut, path, adaToken, `{"files":{}}`, 422, "no files"},
		{"not JSON", http.MethodPut, path, adaToken, `files=1`, 400, "JSON"},
		{"a body over the limit", http.MethodPut, path, adaToken, draftBody(map[string]string{"tokenbucket.go": strings.Repeat("\"", 300<<10)}), 413, "at most"},
		{"a file over the limit", http.MethodPut, path, adaToken, draftBody(map[string]string{"tokenbucket.go": "package tokenbucket\n//" + strings.Repeat("x", 65<<10)}), 422, "over the limit"},
		{"no such exercise", http.MethodGet, "/class/api/drafts/nope", adaToken, "", 404, "no exercise"},
		{"nobody reading", http.MethodGet, path, "", "", 401, "Sign in"},
		{"nobody saving", http.MethodPut, path, "", draftBody(map[string]string{"tokenbucket.go": okSource}), 401, "Sign in"},
	}
	for _, c := range refusals {
		r := f.api(t, c.method, c.path, c.token, c.body)
		got := decode[draftReply](t, r)
		if r.code != c.code || !strings.Contains(got.Error+strings.Join(got.Problems, ";"), c.want) {
			t.Errorf("%s: %s %s = %d %s; want %d saying %q", c.name, c.method, c.path, r.code, r.body, c.code, c.want)
		}
	}
	if d := decode[draftReply](t, f.api(t, http.MethodGet, path, adaToken, "")); d.Version != 1 || d.Files["tokenbucket.go"] != okSource {
		t.Errorf("ada's draft after the refusals = %+v; want version 1 unchanged", d)
	}
	// Code typed half-way is saved as it is: it does not parse yet, and it
	// imports what a submission may not (Check and Submit judge the source).
	const halfTyped = "package tokenbucket\n\nimport \"os\"\n\nfunc (b *Bucket) TryAcquire(n uint64) bool {\n\tif os."
	if r := f.api(t, http.MethodPut, path, adaToken, draftBody(map[string]string{"tokenbucket.go": halfTyped})); r.code != http.StatusOK || decode[draftReply](t, r).Version != 2 {
		t.Errorf("PUT of a half-typed draft = %d %s; want 200 version 2 (nothing typed is lost)", r.code, r.body)
	}
	if d := decode[draftReply](t, f.api(t, http.MethodGet, path, adaToken, "")); d.Version != 2 || d.Files["tokenbucket.go"] != halfTyped {
		t.Errorf("ada's draft after a half-typed save = %+v; want version 2 as typed", d)
	}
	// An instructor has no drafts.
	prof := f.instructor(t)
	if r := prof.get(path, "Accept", "application/json"); r.code != http.StatusForbidden {
		t.Errorf("GET %s as prof = %d; want 403", path, r.code)
	}
}

// learnerBrowser signs ada in with her token (a session cookie) and
// returns the browser and its CSRF token.
func (f *classFixture) learnerBrowser(t *testing.T) (*browser, string) {
	t.Helper()
	b := f.browser(t)
	tok := b.csrf()
	if r := b.postForm("/class/login", url.Values{"token": {adaToken}, "_csrf": {tok}}); r.code != http.StatusSeeOther {
		t.Fatalf("ada signing in = %d; want 303", r.code)
	}
	return b, tok
}

// A cookie-signed-in PUT or POST of the API needs the page's CSRF token in
// X-CSRF-Token, or the browser's word that it comes from the page's own
// origin; one from another site is refused.
func TestClassDraftsCSRF(t *testing.T) {
	f := newClass(t)
	b, tok := f.learnerBrowser(t)
	put := func(header ...string) reply {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPut, f.url+"/class/api/drafts/tokenbucket", strings.NewReader(draftBody(map[string]string{"tokenbucket.go": okSource})))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		return b.do(req)
	}
	cases := []struct {
		name   string
		header []string
		code   int
	}{
		{"no token", nil, http.StatusForbidden},
		{"a wrong token", []string{"X-CSRF-Token", "nope"}, http.StatusForbidden},
		{"from another site, with the token", []string{"X-CSRF-Token", tok, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, http.StatusForbidden},
		{"from a sibling site", []string{"Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
		{"the page's token", []string{"X-CSRF-Token", tok}, http.StatusOK},
		{"the page's own origin", []string{"Sec-Fetch-Site", "same-origin"}, http.StatusOK},
	}
	for _, c := range cases {
		if r := put(c.header...); r.code != c.code {
			t.Errorf("%s: PUT = %d %s; want %d", c.name, r.code, r.body, c.code)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, f.url+"/class/api/checks", strings.NewReader(`{"exercise":"tokenbucket"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if r := b.do(req); r.code != http.StatusForbidden {
		t.Errorf("a check posted from another site = %d %s; want 403", r.code, r.body)
	}
	if n, _ := f.st.CountJobs(t.Context(), store.Queued); n != 0 {
		t.Errorf("%d jobs queued after the refused check; want none", n)
	}
}

// The check budget is the learner's own: over it, 429 with Retry-After
// and a message saying when.
func TestClassCheckBudget(t *testing.T) {
	f := newClassWith(t, fixtureOptions{checks: 1})
	// No draft saved: refused (409), but the try counts, as a refused
	// upload counts against the submission budget.
	r := f.api(t, http.MethodPost, "/class/api/checks", adaToken, `{"exercise":"tokenbucket"}`)
	if r.code != http.StatusConflict || !strings.Contains(r.body, "no draft") {
		t.Fatalf("a check with no draft = %d %s; want 409 saying there is no draft", r.code, r.body)
	}
	r = f.api(t, http.MethodPost, "/class/api/checks", adaToken, `{"exercise":"tokenbucket"}`)
	secs, err := strconv.Atoi(r.header.Get("Retry-After"))
	if r.code != http.StatusTooManyRequests || err != nil || secs < 1 || secs > 10 {
		t.Fatalf("a second check at once = %d, Retry-After %q; want 429 with 1 to 10 s", r.code, r.header.Get("Retry-After"))
	}
	want := "at " + classNow.Add(time.Duration(secs)*time.Second).Format("15:04:05")
	if msg := decode[draftReply](t, r).Error; !strings.Contains(msg, "checks") || !strings.Contains(msg, want) {
		t.Errorf("the 429's message %q; want it to speak of checks and say when (%s)", msg, want)
	}
	// Bob's budget is his own; submitting is not throttled by checks.
	if r := f.api(t, http.MethodPost, "/class/api/checks", bobToken, `{"exercise":"tokenbucket"}`); r.code != http.StatusConflict {
		t.Errorf("bob's first check = %d; want 409 (no draft), not throttled by ada's", r.code)
	}
	f.submit(t, adaToken)
}

type checkReply struct {
	Check    int64          `json:"check"`
	Exercise string         `json:"exercise"`
	State    store.JobState `json:"state"`
	Error    string         `json:"error"`
	Report   string         `json:"report"`
	URL      string         `json:"url"`
	Result   *struct {
		Status string  `json:"status"`
		Score  float64 `json:"score"`
	} `json:"result"`
}

// POST /class/api/checks queues the saved draft as a check and answers
// once it is graded, with the result and its report as the pages render
// it; the check is readable at its url, and is no submission.
func TestClassCheck(t *testing.T) { storetest.Each(t, testClassCheck) }

func testClassCheck(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	if r := f.api(t, http.MethodPut, "/class/api/drafts/tokenbucket", adaToken, draftBody(map[string]string{"tokenbucket.go": okSource})); r.code != http.StatusOK {
		t.Fatalf("PUT draft = %d %s", r.code, r.body)
	}
	answer := make(chan reply, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, f.url+"/class/api/checks", strings.NewReader(`{"exercise":"tokenbucket"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+adaToken)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			answer <- reply{code: -1, body: err.Error()}
			return
		}
		defer res.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := res.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		answer <- reply{code: res.StatusCode, header: res.Header, body: b.String()}
	}()
	// The check waits in the queue (this class's workers are not
	// started): grade it here, as a worker would.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if n, _ := f.st.CountJobs(t.Context(), store.Queued); n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the check was never queued")
		}
	}
	f.finish(t, 12)
	var r reply
	select {
	case r = <-answer:
	case <-time.After(60 * time.Second):
		t.Fatal("no answer to the check after its grading")
	}
	c := decode[checkReply](t, r)
	if r.code != http.StatusOK || c.Check == 0 || c.Result == nil || c.Result.Score != 12 || c.State != store.Done ||
		!strings.Contains(c.Report, `data-testid="check-result"`) || c.URL != "/class/checks/"+strconv.FormatInt(c.Check, 10) {
		t.Fatalf("POST /class/api/checks = %d %s; want 200 with the check's result (12 points), its report and url", r.code, r.body)
	}
	if got := decode[checkReply](t, f.api(t, http.MethodGet, c.URL, adaToken, "")); got.Check != c.Check || got.Result == nil || got.Result.Score != 12 {
		t.Errorf("GET %s = %+v; want the check with its result", c.URL, got)
	}
	b, _ := f.learnerBrowser(t)
	if r := b.get(c.URL); r.code != http.StatusOK || !strings.Contains(r.body, `data-testid="check-result"`) || strings.Contains(r.body, "<html") {
		t.Errorf("GET %s from the page = %d; want the report as a fragment:\n%s", c.URL, r.code, r.body)
	}
	if r := f.api(t, http.MethodGet, c.URL, bobToken, ""); r.code != http.StatusNotFound {
		t.Errorf("bob reading ada's check = %d; want 404", r.code)
	}
	if r := f.api(t, http.MethodGet, "/class/submissions/"+strconv.FormatInt(c.Check, 10), adaToken, ""); r.code != http.StatusNotFound {
		t.Errorf("the check read as a submission = %d; want 404 (it is no submission)", r.code)
	}
	if r := b.get("/class/me"); !strings.Contains(r.body, `data-testid="no-submissions"`) {
		t.Errorf("ada's page after a check lists submissions; want none:\n%s", r.body)
	}
}

// The exercise page holds the editor for a learner, linked from their
// page; an instructor reads the task without one.
func TestClassExercisePage(t *testing.T) {
	f := newClass(t)
	b, _ := f.learnerBrowser(t)
	me, err := goquery.NewDocumentFromReader(strings.NewReader(b.get("/class/me").body))
	if err != nil {
		t.Fatal(err)
	}
	if href, _ := me.Find(`[data-testid=write-tokenbucket]`).Attr("href"); href != "/class/exercises/tokenbucket" {
		t.Errorf("ada's page links tokenbucket's editor as %q; want /class/exercises/tokenbucket", href)
	}
	r := b.get("/class/exercises/tokenbucket")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	ed := doc.Find(`[data-editor]`)
	if r.code != http.StatusOK || ed.Length() != 1 || ed.AttrOr("data-editor", "") != "tokenbucket" || ed.AttrOr("data-editor-mode", "") != "class" ||
		ed.AttrOr("data-editor-csrf", "") == "" {
		t.Errorf("GET /class/exercises/tokenbucket = %d; want the class editor of tokenbucket:\n%s", r.code, r.body)
	}
	if doc.Find(`[data-testid=api]`).Length() != 1 || doc.Find(`script[src="/static/editor/editor.js"]`).Length() != 1 {
		t.Errorf("the exercise page lacks the API or the editor's script")
	}
	if r := b.get("/class/exercises/nope"); r.code != http.StatusNotFound {
		t.Errorf("GET /class/exercises/nope = %d; want 404", r.code)
	}
	r = f.instructor(t).get("/class/exercises/tokenbucket")
	if r.code != http.StatusOK || strings.Contains(r.body, "data-editor=") || !strings.Contains(r.body, `data-testid="instructor-note"`) {
		t.Errorf("GET /class/exercises/tokenbucket as prof = %d; want the task without an editor:\n%s", r.code, r.body)
	}
}

func TestClassDraftsBase(t *testing.T) { storetest.Each(t, testClassDraftsBase) }

// A save that names the version it was edited from ("base") is made only
// over that version: a second tab that saves from a version another tab
// has replaced gets 409 with that tab's draft, and nothing is overwritten.
func testClassDraftsBase(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	const path = "/class/api/drafts/tokenbucket"
	put := func(base int64, src string) reply {
		b, _ := json.Marshal(map[string]any{"files": map[string]string{"tokenbucket.go": src}, "base": base})
		return f.api(t, http.MethodPut, path, adaToken, string(b))
	}
	tabA, tabB := okSource+"// tab A\n", okSource+"// tab B\n"
	if r := put(0, okSource); r.code != http.StatusOK || decode[draftReply](t, r).Version != 1 {
		t.Fatalf("the first save over the stub (base 0) = %d %s; want 200 version 1", r.code, r.body)
	}
	if r := put(1, tabA); r.code != http.StatusOK || decode[draftReply](t, r).Version != 2 {
		t.Fatalf("tab A's save over version 1 = %d %s; want 200 version 2", r.code, r.body)
	}
	r := put(1, tabB)
	if d := decode[draftReply](t, r); r.code != http.StatusConflict || d.Version != 2 || d.Files["tokenbucket.go"] != tabA {
		t.Errorf("tab B's save over version 1 = %d %s; want 409 with tab A's draft, version 2", r.code, r.body)
	}
	if r := put(0, tabB); r.code != http.StatusConflict {
		t.Errorf("a save over the stub once a draft exists = %d %s; want 409", r.code, r.body)
	}
	if d := decode[draftReply](t, f.api(t, http.MethodGet, path, adaToken, "")); d.Version != 2 || d.Files["tokenbucket.go"] != tabA {
		t.Errorf("the draft after the refused saves = %+v; want tab A's, version 2", d)
	}
	// Tab B takes its own after seeing A's: a save over version 2.
	if r := put(2, tabB); r.code != http.StatusOK || decode[draftReply](t, r).Version != 3 {
		t.Errorf("tab B's save over version 2 = %d %s; want 200 version 3", r.code, r.body)
	}
}
