package server_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/crypto/bcrypt"

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
	// handler is what the server serves, for a test that serves it again
	// with other limits.
	handler http.Handler
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
	return &classFixture{url: srv.URL, st: st, transport: srv.Client().Transport, handler: h}
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

// apiError is the JSON body of a refusal.
type apiError struct {
	Error    string   `json:"error"`
	Problems []string `json:"problems"`
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
