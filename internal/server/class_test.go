package server_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"golang.org/x/crypto/bcrypt"

	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/server"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
	"ratelab/web"
)

// These tests serve class mode from a real store on a temporary SQLite
// file and a class whose workers are not started: submissions stay queued
// until a test records a grading itself (finish).

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

var classNow = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

const (
	adaToken     = "rl_ada-token"
	bobToken     = "rl_bob-token"
	profPassword = "correct horse battery"
	okSource     = "package tokenbucket\n\nimport \"math/bits\"\n\nvar _ = bits.Mul64\n"
)

type classFixture struct {
	url string
	st  *store.Store
	// transport reaches the server: its TLS client when it serves HTTPS.
	transport http.RoundTripper
}

// newClass serves a class of ada and bob (learners) and prof (instructor),
// each learner allowed 50 submissions at once.
func newClass(t *testing.T) *classFixture { return newClassBurst(t, 50) }

func newClassBurst(t *testing.T, burst uint64) *classFixture {
	t.Helper()
	return newClassWith(t, fixtureOptions{burst: burst})
}

// fixtureOptions change a test class from newClass's.
type fixtureOptions struct {
	burst  uint64         // each learner's submissions at once; 0 means 50
	checks uint64         // each learner's checks at once; 0 means the class's default
	target string         // the store's address (storetest.Each); "" means a new SQLite file
	class  server.Class   // its sign-in and live settings (Class itself is set by newClassWith)
	limits *server.Limits // the HTTP server's limits (server.HTTPServer, server.Listener); nil means the defaults
	clock  class.Clock    // the store's and the class's time; nil means fixed at classNow
	tls    bool           // serve HTTPS (httptest's certificate)
}

func newClassWith(t *testing.T, o fixtureOptions) *classFixture {
	t.Helper()
	if o.burst == 0 {
		o.burst = 50
	}
	ctx := t.Context()
	var clock class.Clock = fixedClock{classNow}
	if o.clock != nil {
		clock = o.clock
	}
	if o.target == "" {
		o.target = filepath.Join(t.TempDir(), "class.db")
	}
	st, err := store.Open(ctx, o.target, clock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for name, tok := range map[string]string{"ada": adaToken, "bob": bobToken} {
		if _, err := st.AddLearner(ctx, name, store.Hash(tok)); err != nil {
			t.Fatal(err)
		}
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(profPassword), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddInstructor(ctx, "prof", string(hash)); err != nil {
		t.Fatal(err)
	}
	cl := class.New(class.Config{Store: st, Root: "../..", Clock: clock, SubmitBurst: o.burst, SubmitEvery: 30 * time.Second, CheckBurst: o.checks,
		Log: slog.New(slog.DiscardHandler)})
	o.class.Class = cl
	// Served as labserver serves it: with the server's limits.
	if o.limits == nil {
		o.limits = &server.Limits{}
	}
	h := server.New(server.Config{
		Static:         web.Static(""),
		Log:            slog.New(slog.DiscardHandler),
		Class:          &o.class,
		TrustedProxies: o.limits.TrustedProxies,
	})
	srv := httptest.NewUnstartedServer(h)
	srv.Config = server.HTTPServer(h, *o.limits)
	srv.Listener = server.Listener(srv.Listener, *o.limits)
	if o.tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return &classFixture{url: srv.URL, st: st, transport: srv.Client().Transport}
}

// browser is a client with cookies that does not follow redirects.
type browser struct {
	t *testing.T
	f *classFixture
	c *http.Client
}

func (f *classFixture) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, f: f, c: &http.Client{Jar: jar, Transport: origin{f.url, f.transport}, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// origin sends requests as a browser on the class's own pages does: a
// write names the page's origin (Origin). A test of another site's
// request sets its own Origin, which is kept.
type origin struct {
	url  string
	base http.RoundTripper
}

func (o origin) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, set := req.Header["Origin"]; !set && req.Method != http.MethodGet && req.Method != http.MethodHead {
		req = req.Clone(req.Context())
		req.Header.Set("Origin", o.url)
	}
	if o.base == nil {
		return http.DefaultTransport.RoundTrip(req)
	}
	return o.base.RoundTrip(req)
}

type reply struct {
	code   int
	header http.Header
	body   string
}

func (b *browser) do(req *http.Request) reply {
	b.t.Helper()
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return reply{res.StatusCode, res.Header, string(body)}
}

func (b *browser) get(path string, header ...string) reply {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.f.url+path, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return b.do(req)
}

func (b *browser) postForm(path string, form url.Values) reply {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodPost, b.f.url+path, strings.NewReader(form.Encode()))
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

// csrf opens the login page and returns the form's CSRF token (its cookie
// is now in the jar).
func (b *browser) csrf() string {
	b.t.Helper()
	r := b.get("/class/login")
	if r.code != http.StatusOK {
		b.t.Fatalf("GET /class/login = %d; want 200", r.code)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if err != nil {
		b.t.Fatal(err)
	}
	tok, ok := doc.Find(`[data-testid=learner-login] input[name=_csrf]`).Attr("value")
	if !ok || tok == "" {
		b.t.Fatalf("the login page has no CSRF token:\n%s", r.body)
	}
	return tok
}

func (b *browser) signIn(form url.Values) reply {
	b.t.Helper()
	form.Set("_csrf", b.csrf())
	return b.postForm("/class/login", form)
}

// instructor returns a browser signed in as prof.
func (f *classFixture) instructor(t *testing.T) *browser {
	t.Helper()
	b := f.browser(t)
	if r := b.signIn(url.Values{"name": {"prof"}, "password": {profPassword}}); r.code != http.StatusSeeOther {
		t.Fatalf("prof signing in = %d; want 303:\n%s", r.code, r.body)
	}
	return b
}

func (b *browser) hasSession() bool {
	u, _ := url.Parse(b.f.url + "/class")
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == "ratelab_session" && c.Value != "" {
			return true
		}
	}
	return false
}

func TestClassSignIn(t *testing.T) { storetest.Each(t, testClassSignIn) }

func testClassSignIn(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})

	t.Run("learner token", func(t *testing.T) {
		b := f.browser(t)
		r := b.signIn(url.Values{"token": {adaToken}})
		if r.code != http.StatusSeeOther || r.header.Get("Location") != "/class" || !b.hasSession() {
			t.Fatalf("POST /class/login with ada's token = %d to %q, session %v; want 303 to /class with a session",
				r.code, r.header.Get("Location"), b.hasSession())
		}
		if r := b.get("/class"); r.code != http.StatusSeeOther || r.header.Get("Location") != "/class/me" {
			t.Errorf("GET /class signed in as ada = %d to %q; want 303 to /class/me", r.code, r.header.Get("Location"))
		}
		r = b.get("/class/me")
		if r.code != http.StatusOK || !strings.Contains(r.body, `data-testid="whoami">ada<`) {
			t.Errorf("GET /class/me = %d; want 200 naming ada:\n%s", r.code, r.body)
		}
		// Signing out ends the session on the server, not only in the jar.
		u, _ := url.Parse(f.url + "/class")
		cookies := b.c.Jar.Cookies(u)
		form := url.Values{"_csrf": {b.csrf()}}
		if r := b.postForm("/class/logout", form); r.code != http.StatusSeeOther {
			t.Errorf("POST /class/logout = %d; want 303", r.code)
		}
		again := f.browser(t)
		again.c.Jar.SetCookies(u, cookies)
		if r := again.get("/class/me"); r.code != http.StatusSeeOther || r.header.Get("Location") != "/class/login" {
			t.Errorf("GET /class/me with the session signed out = %d to %q; want 303 to /class/login", r.code, r.header.Get("Location"))
		}
	})

	t.Run("instructor password", func(t *testing.T) {
		b := f.instructor(t)
		if r := b.get("/class"); r.code != http.StatusSeeOther || r.header.Get("Location") != "/class/dashboard" {
			t.Errorf("GET /class signed in as prof = %d to %q; want 303 to /class/dashboard", r.code, r.header.Get("Location"))
		}
	})

	bad := []struct {
		name string
		form url.Values
	}{
		{"unknown token", url.Values{"token": {"rl_nobody"}}},
		{"wrong password", url.Values{"name": {"prof"}, "password": {"not the password"}}},
		{"learner as instructor", url.Values{"name": {"ada"}, "password": {profPassword}}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			b := f.browser(t)
			r := b.signIn(tt.form)
			if r.code != http.StatusUnauthorized || !strings.Contains(r.body, "did not match anyone in this class") || b.hasSession() {
				t.Errorf("POST /class/login = %d, session %v; want 401 saying it did not match, no session:\n%s", r.code, b.hasSession(), r.body)
			}
		})
	}

	csrfRefused := []struct {
		name  string
		token func(b *browser) string
	}{
		{"no token", func(b *browser) string { b.csrf(); return "" }},
		{"another token", func(b *browser) string { b.csrf(); return "forged" }},
		{"no cookie", func(b *browser) string { return f.browser(t).csrf() }},
	}
	for _, tt := range csrfRefused {
		t.Run("CSRF "+tt.name, func(t *testing.T) {
			b := f.browser(t)
			form := url.Values{"token": {adaToken}}
			if tok := tt.token(b); tok != "" {
				form.Set("_csrf", tok)
			}
			r := b.postForm("/class/login", form)
			if r.code != http.StatusForbidden || !strings.Contains(r.body, "did not come from this site") || b.hasSession() {
				t.Errorf("POST /class/login = %d, session %v; want 403 saying the form did not come from this site, no session:\n%s", r.code, b.hasSession(), r.body)
			}
		})
	}
}

// part is one part of a multipart upload; name "" is the exercise field.
type part struct {
	disposition string // the whole Content-Disposition
	content     string
}

func file(name, content string) part {
	return part{fmt.Sprintf(`form-data; name="files"; filename=%q`, name), content}
}

func exercise(id string) part {
	return part{`form-data; name="exercise"`, id}
}

func multipartBody(t *testing.T, parts ...part) (string, *bytes.Buffer) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, p := range parts {
		w, err := mw.CreatePart(textproto.MIMEHeader{"Content-Disposition": {p.disposition}})
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.content)
	}
	mw.Close()
	return mw.FormDataContentType(), &body
}

// upload posts a submission as the submit command does (bearer token,
// JSON answers).
func (f *classFixture) upload(t *testing.T, token, contentType string, body io.Reader) reply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.url+"/class/submissions", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	return f.browser(t).do(req)
}

// submit uploads a valid tokenbucket as the learner and returns its id.
func (f *classFixture) submit(t *testing.T, token string) int64 {
	t.Helper()
	ct, body := multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", okSource))
	r := f.upload(t, token, ct, body)
	var got struct {
		ID       int64  `json:"id"`
		Exercise string `json:"exercise"`
		URL      string `json:"url"`
		Live     string `json:"live"`
	}
	if r.code != http.StatusAccepted || json.Unmarshal([]byte(r.body), &got) != nil || got.ID == 0 {
		t.Fatalf("POST /class/submissions = %d %s; want 202 with the submission's id", r.code, r.body)
	}
	url := "/class/submissions/" + strconv.FormatInt(got.ID, 10)
	if got.Exercise != "tokenbucket" || got.URL != url || got.Live != url+"/live" {
		t.Errorf("POST /class/submissions = %+v; want exercise tokenbucket, url %s and live %s/live", got, url, url)
	}
	return got.ID
}

// apiError is the JSON body of a refusal.
type apiError struct {
	Error    string   `json:"error"`
	Problems []string `json:"problems"`
}

func TestClassUpload(t *testing.T) { storetest.Each(t, testClassUpload) }

func testClassUpload(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})

	t.Run("accepted", func(t *testing.T) {
		id := f.submit(t, adaToken)
		sub, err := f.st.Submission(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if sub.Learner != "ada" || sub.Exercise != "tokenbucket" || sub.Job.State != store.Queued ||
			len(sub.Files) != 1 || sub.Files[0].Name != "tokenbucket.go" || string(sub.Files[0].Content) != okSource {
			t.Errorf("stored submission = %+v; want ada's tokenbucket.go, queued", sub)
		}
	})

	t.Run("from the browser's form", func(t *testing.T) {
		b := f.browser(t)
		b.signIn(url.Values{"token": {bobToken}})
		ct, body := multipartBody(t, part{`form-data; name="_csrf"`, b.csrf()}, exercise("tokenbucket"), file("tokenbucket.go", okSource))
		req, _ := http.NewRequest(http.MethodPost, f.url+"/class/submissions", body)
		req.Header.Set("Content-Type", ct)
		r := b.do(req)
		if r.code != http.StatusSeeOther || !strings.HasPrefix(r.header.Get("Location"), "/class/submissions/") {
			t.Errorf("the upload form = %d to %q; want 303 to the submission:\n%s", r.code, r.header.Get("Location"), r.body)
		}
	})

	rejected := []struct {
		name        string
		contentType string
		body        func(t *testing.T) (string, *bytes.Buffer)
		code        int
		error       string // a phrase of the message
		problem     string // a phrase of the one problem listed, if any
	}{
		{name: "not multipart", code: http.StatusBadRequest, error: "not a multipart form",
			body: func(*testing.T) (string, *bytes.Buffer) {
				return "text/plain", bytes.NewBufferString("package tokenbucket\n")
			}},
		{name: "cut short", code: http.StatusBadRequest, error: "not a well-formed multipart form",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				ct, b := multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", okSource))
				b.Truncate(b.Len() - 10)
				return ct, b
			}},
		{name: "folder in the name", code: http.StatusUnprocessableEntity, error: "not accepted", problem: "may not contain a folder",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				return multipartBody(t, exercise("tokenbucket"), file("../tokenbucket.go", okSource))
			}},
		{name: "folder in an RFC 2231 name", code: http.StatusUnprocessableEntity, error: "not accepted", problem: "may not contain a folder",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				return multipartBody(t, exercise("tokenbucket"),
					part{`form-data; name="files"; filename*=UTF-8''..%2Ftokenbucket.go`, okSource})
			}},
		{name: "wrong package", code: http.StatusUnprocessableEntity, error: "not accepted", problem: "want package tokenbucket",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				return multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", "package main\n"))
			}},
		{name: "no exercise", code: http.StatusUnprocessableEntity, error: "not accepted", problem: "no exercise called",
			body: func(t *testing.T) (string, *bytes.Buffer) {
				return multipartBody(t, file("tokenbucket.go", okSource))
			}},
	}
	for _, tt := range rejected {
		t.Run(tt.name, func(t *testing.T) {
			before, err := f.st.CountJobs(t.Context(), store.Queued)
			if err != nil {
				t.Fatal(err)
			}
			ct, body := tt.body(t)
			r := f.upload(t, bobToken, ct, body)
			var got apiError
			if err := json.Unmarshal([]byte(r.body), &got); err != nil {
				t.Fatalf("POST /class/submissions = %d %q; want a JSON error", r.code, r.body)
			}
			if r.code != tt.code || !strings.Contains(got.Error, tt.error) {
				t.Errorf("POST /class/submissions = %d %q; want %d saying %q", r.code, got.Error, tt.code, tt.error)
			}
			if tt.problem != "" && (len(got.Problems) != 1 || !strings.Contains(got.Problems[0], tt.problem)) {
				t.Errorf("problems = %q; want one containing %q", got.Problems, tt.problem)
			}
			if after, _ := f.st.CountJobs(t.Context(), store.Queued); after != before {
				t.Errorf("a refused upload queued a job: %d queued, %d before", after, before)
			}
		})
	}
}

func TestClassUploadThrottled(t *testing.T) { storetest.Each(t, testClassUploadThrottled) }

func testClassUploadThrottled(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{burst: 1, target: target})
	f.submit(t, adaToken)
	ct, body := multipartBody(t, exercise("tokenbucket"), file("tokenbucket.go", okSource))
	r := f.upload(t, adaToken, ct, body)
	var got apiError
	if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") != "30" ||
		json.Unmarshal([]byte(r.body), &got) != nil || !strings.Contains(got.Error, "It refills in 30s, at 09:00:30 UTC") {
		t.Errorf("a second upload at once = %d, Retry-After %q, %s; want 429, 30, when it refills", r.code, r.header.Get("Retry-After"), r.body)
	}
	f.submit(t, bobToken) // bob's budget is his own
}

func TestClassSubmissionIsItsLearners(t *testing.T) {
	storetest.Each(t, testClassSubmissionIsItsLearners)
}

func testClassSubmissionIsItsLearners(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	id := f.submit(t, adaToken)
	path := "/class/submissions/" + strconv.FormatInt(id, 10)
	asJSON := func(token string) reply {
		return f.browser(t).get(path, "Authorization", "Bearer "+token)
	}

	r := asJSON(adaToken)
	var got server.SubmissionJSON
	if r.code != http.StatusOK || json.Unmarshal([]byte(r.body), &got) != nil || got.ID != id || got.Learner != "ada" || got.State != store.Queued {
		t.Errorf("ada: GET %s = %d %s; want 200 with her queued submission", path, r.code, r.body)
	}
	r = asJSON(bobToken)
	var refused apiError
	if r.code != http.StatusNotFound || json.Unmarshal([]byte(r.body), &refused) != nil || refused.Error != fmt.Sprintf("There is no submission %d of yours.", id) {
		t.Errorf("bob: GET %s = %d %s; want 404 as if it did not exist", path, r.code, r.body)
	}
	if strings.Contains(r.body, "bits.Mul64") {
		t.Errorf("bob: GET %s shows ada's code: %s", path, r.body)
	}
	if r := f.browser(t).get(path+"/live", "Authorization", "Bearer "+bobToken); r.code != http.StatusNotFound {
		t.Errorf("bob: GET %s/live = %d; want 404", path, r.code)
	}
	prof := f.instructor(t)
	if r := prof.get(path); r.code != http.StatusOK || !strings.Contains(r.body, "bits.Mul64") {
		t.Errorf("prof: GET %s = %d; want 200 with ada's code:\n%s", path, r.code, r.body)
	}
	if r := asJSON(adaToken + "x"); r.code != http.StatusUnauthorized {
		t.Errorf("an unknown token: GET %s = %d; want 401", path, r.code)
	}
}

func TestClassInstructorOnly(t *testing.T) { storetest.Each(t, testClassInstructorOnly) }

func testClassInstructorOnly(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	routes := []struct{ method, path string }{
		{http.MethodGet, "/class/dashboard"},
		{http.MethodGet, "/class/dashboard/live"},
		{http.MethodGet, "/class/dashboard/pitfalls"},
		{http.MethodGet, "/class/submissions?exercise=tokenbucket&pitfall=overflow"},
		{http.MethodGet, "/class/gradebook.csv"},
		{http.MethodPost, "/class/regrade"},
	}
	ada := f.browser(t)
	ada.signIn(url.Values{"token": {adaToken}})
	for _, rt := range routes {
		// A learner's command (bearer token) and a learner's browser
		// (session, CSRF token) are both refused.
		req, _ := http.NewRequest(rt.method, f.url+rt.path, nil)
		req.Header.Set("Authorization", "Bearer "+adaToken)
		r := f.browser(t).do(req)
		var got apiError
		if r.code != http.StatusForbidden || json.Unmarshal([]byte(r.body), &got) != nil || got.Error != "This page is for instructors only." {
			t.Errorf("%s %s with ada's token = %d %s; want 403 for instructors only", rt.method, rt.path, r.code, r.body)
		}
		if rt.method == http.MethodGet {
			r = ada.get(rt.path)
		} else {
			r = ada.postForm(rt.path, url.Values{"_csrf": {ada.csrf()}})
		}
		if r.code != http.StatusForbidden || !strings.Contains(r.body, "for instructors only") {
			t.Errorf("%s %s signed in as ada = %d; want 403 for instructors only:\n%s", rt.method, rt.path, r.code, r.body)
		}
	}
	if r := f.browser(t).get("/class/dashboard"); r.code != http.StatusSeeOther || r.header.Get("Location") != "/class/login" {
		t.Errorf("GET /class/dashboard signed out = %d to %q; want 303 to /class/login", r.code, r.header.Get("Location"))
	}
	if r := f.browser(t).get("/class/gradebook.csv", "Accept", "application/json"); r.code != http.StatusUnauthorized {
		t.Errorf("GET /class/gradebook.csv signed out, as a program = %d; want 401", r.code)
	}
	// And the other way: an instructor does not submit.
	prof := f.instructor(t)
	ct, body := multipartBody(t, part{`form-data; name="_csrf"`, prof.csrf()}, exercise("tokenbucket"), file("tokenbucket.go", okSource))
	req, _ := http.NewRequest(http.MethodPost, f.url+"/class/submissions", body)
	req.Header.Set("Content-Type", ct)
	if r := prof.do(req); r.code != http.StatusForbidden || !strings.Contains(r.body, "for learners only") {
		t.Errorf("POST /class/submissions signed in as prof = %d; want 403 for learners only", r.code)
	}
	if r := prof.get("/class/dashboard"); r.code != http.StatusOK {
		t.Errorf("GET /class/dashboard signed in as prof = %d; want 200", r.code)
	}
}

func TestClassPitfallSubmissions(t *testing.T) { storetest.Each(t, testClassPitfallSubmissions) }

// Each count of the dashboard's pitfalls table links to the submissions
// behind it: GET /class/submissions?exercise=X&pitfall=Y lists each
// learner's latest graded submission that fails a check of that pitfall,
// the ones the count counts.
func testClassPitfallSubmissions(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	f.submit(t, adaToken)
	f.finish(t, 30) // fails a check of the pitfall overflow
	prof := f.instructor(t)
	link := "/class/submissions?exercise=tokenbucket&amp;pitfall=overflow"
	r := prof.get("/class/dashboard/pitfalls")
	if r.code != http.StatusOK || !strings.Contains(r.body, `data-testid="pitfall-tokenbucket-overflow"`) || !strings.Contains(r.body, `href="`+link+`"`) {
		t.Errorf("GET /class/dashboard/pitfalls = %d; want overflow's row linking to %s:\n%s", r.code, link, r.body)
	}
	r = prof.get("/class/submissions?exercise=tokenbucket&pitfall=overflow")
	if r.code != http.StatusOK || !strings.Contains(r.body, `data-testid="submission-1"`) || !strings.Contains(r.body, "fails a check for this pitfall: 1.") {
		t.Errorf("overflow's submissions = %d; want ada's submission 1 listed:\n%s", r.code, r.body)
	}
	r = prof.get("/class/submissions?exercise=tokenbucket&pitfall=capacity")
	if r.code != http.StatusOK || !strings.Contains(r.body, `data-testid="no-submissions"`) {
		t.Errorf("a pitfall nobody hits = %d; want an empty list:\n%s", r.code, r.body)
	}
	for path, want := range map[string]int{
		"/class/submissions":                                  http.StatusBadRequest,
		"/class/submissions?exercise=tokenbucket":             http.StatusBadRequest,
		"/class/submissions?exercise=nosuch&pitfall=overflow": http.StatusNotFound,
	} {
		if r := prof.get(path); r.code != want {
			t.Errorf("GET %s = %d; want %d", path, r.code, want)
		}
	}
}

// finish records a grading of the oldest queued job.
func (f *classFixture) finish(t *testing.T, score float64) {
	t.Helper()
	ctx := t.Context()
	job, ok, err := f.st.ClaimJob(ctx)
	if err != nil || !ok {
		t.Fatalf("ClaimJob = %v, %v; want a job", ok, err)
	}
	ex := &report.Exercise{ID: "tokenbucket", Status: report.Failed, Score: score, MaxScore: 35,
		Checks: []report.Check{{ID: "tokenbucket/overflow", Pitfall: "overflow", Status: report.Failed, MaxScore: 5}}}
	if err := f.st.FinishJob(ctx, job.ID, ex, 1, ""); err != nil {
		t.Fatal(err)
	}
}

func TestClassGradebookCSV(t *testing.T) { storetest.Each(t, testClassGradebookCSV) }

func testClassGradebookCSV(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	// Each graded before the next is sent: a newer submission replaces
	// one still waiting.
	f.submit(t, adaToken)
	f.finish(t, 30) // ada's first
	f.submit(t, adaToken)
	f.finish(t, 20) // ada's latest: lower
	r := f.instructor(t).get("/class/gradebook.csv")
	if r.code != http.StatusOK || r.header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		r.header.Get("Content-Disposition") != `attachment; filename="gradebook.csv"` {
		t.Fatalf("GET /class/gradebook.csv = %d, %q, %q; want 200, text/csv, an attachment",
			r.code, r.header.Get("Content-Type"), r.header.Get("Content-Disposition"))
	}
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("gradebook.csv = %q, %v; want a header and a row for ada and bob", r.body, err)
	}
	head := rows[0]
	if head[0] != "learner" || head[len(head)-1] != "total best" {
		t.Errorf("header = %q; want learner first, total best last", head)
	}
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("header %q has no column %q", head, name)
		}
		return i
	}
	want := map[string]map[string]string{
		"ada": {"tokenbucket best": "30", "tokenbucket latest": "20", "tokenbucket max": "35", "total best": "30"},
		// Nothing graded: no scores and no total (0 read as graded and
		// failed), but the exercise is still worth its points.
		"bob": {"tokenbucket best": "", "tokenbucket latest": "", "tokenbucket max": "35", "total best": ""},
	}
	for _, row := range rows[1:] {
		w, ok := want[row[0]]
		if !ok {
			t.Errorf("row %q: no such learner", row)
			continue
		}
		delete(want, row[0])
		for name, v := range w {
			if got := row[col(name)]; got != v {
				t.Errorf("%s's %q = %q; want %q", row[0], name, got, v)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("gradebook.csv has no row for %v:\n%s", want, r.body)
	}
}

// dial opens a websocket of the class with the given headers.
func (f *classFixture) dial(t *testing.T, ctx context.Context, path string, header http.Header) *websocket.Conn {
	t.Helper()
	conn, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.url, "http")+path, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		code := 0
		if res != nil {
			code = res.StatusCode
		}
		t.Fatalf("dial %s: %v (status %d)", path, err, code)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

func read(t *testing.T, ctx context.Context, conn *websocket.Conn) class.Event {
	t.Helper()
	var e class.Event
	if err := wsjson.Read(ctx, conn, &e); err != nil {
		t.Fatalf("reading an event: %v", err)
	}
	return e
}

func TestClassLive(t *testing.T) { storetest.Each(t, testClassLive) }

func testClassLive(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	ada := http.Header{"Authorization": {"Bearer " + adaToken}}

	graded := f.submit(t, adaToken)
	f.finish(t, 30)
	queued := f.submit(t, adaToken)

	// A graded submission: its done event, then a normal close.
	conn := f.dial(t, ctx, fmt.Sprintf("/class/submissions/%d/live", graded), ada)
	if e := read(t, ctx, conn); e.Type != class.EventDone || e.Submission != graded || e.Summary == nil || e.Score != 30 || e.MaxScore != 35 {
		t.Errorf("live view of a graded submission: first event %+v; want done with its score 30 / 35", e)
	}
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Errorf("after done: %v; want a normal close", err)
	}

	// A queued one: its state as an event, not a job state passed on.
	conn = f.dial(t, ctx, fmt.Sprintf("/class/submissions/%d/live", queued), ada)
	if e := read(t, ctx, conn); e.Type != class.EventQueued || e.Submission != queued || e.Learner != "ada" {
		t.Errorf("live view of a queued submission: first event %+v; want queued", e)
	}

	// The dashboard: hello, then every submission's queued event.
	prof := f.instructor(t)
	u, _ := url.Parse(f.url + "/class")
	var cookies []string
	for _, c := range prof.c.Jar.Cookies(u) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	dash := f.dial(t, ctx, "/class/dashboard/live", http.Header{"Cookie": {strings.Join(cookies, "; ")}})
	if e := read(t, ctx, dash); e.Type != class.EventHello {
		t.Fatalf("dashboard: first event %+v; want hello", e)
	}
	id := f.submit(t, bobToken) // subscribed before hello was sent: this one is seen
	if e := read(t, ctx, dash); e.Type != class.EventQueued || e.Submission != id || e.Learner != "bob" || e.Exercise != "tokenbucket" {
		t.Errorf("dashboard after bob submits: %+v; want bob's tokenbucket queued", e)
	}
}
