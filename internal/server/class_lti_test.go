package server_test

import (
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/crypto/bcrypt"

	"ratelab/internal/class"
	"ratelab/internal/lti"
	"ratelab/internal/lti/ltitest"
	"ratelab/internal/server"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
	"ratelab/web"
)

// ltiClass serves a class with LTI on 127.0.0.1, with a test platform
// registered and a link of it to gcra worth 25 points.
func ltiClass(t *testing.T, target string) (*classFixture, *ltitest.Platform) {
	f, p, _ := ltiClassWith(t, target, true, false)
	return f, p
}

// ltiClassWith is ltiClass, the platform registered or not, the class
// served over HTTPS or not, which also returns the tool.
func ltiClassWith(t *testing.T, target string, registered, https bool) (*classFixture, *ltitest.Platform, *lti.Tool) {
	t.Helper()
	ctx := t.Context()
	clock := fixedClock{classNow}
	st, err := store.Open(ctx, target, clock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	hash, err := bcrypt.GenerateFromPassword([]byte(profPassword), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddInstructor(ctx, "prof", string(hash)); err != nil {
		t.Fatal(err)
	}
	var h http.Handler
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	if https {
		srv.StartTLS()
		// The test's browsers (default transport) trust the server's
		// certificate while the test runs.
		def := http.DefaultTransport.(*http.Transport)
		old := def.TLSClientConfig
		def.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig
		t.Cleanup(func() { def.TLSClientConfig = old })
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	tool, err := lti.New(ctx, lti.Config{Store: st, Clock: clock, URL: srv.URL, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	cl := class.New(class.Config{Store: st, Root: "../..", Clock: clock, Log: slog.New(slog.DiscardHandler)})
	h = server.New(server.Config{Static: web.Static(""), Log: slog.New(slog.DiscardHandler), Class: &server.Class{Class: cl, LTI: tool}})
	p := ltitest.New(t, srv.URL, clock.Now)
	if registered {
		if _, err := p.Register(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	p.AddLink("link-gcra", "gcra", 25)
	return &classFixture{url: srv.URL, st: st}, p, tool
}

// ltiBrowser is a browser of the fixture's that follows redirects; last
// is where the latest one ended.
type ltiBrowserT struct {
	*browser
	last *url.URL
}

func ltiBrowser(t *testing.T, f *classFixture) *ltiBrowserT {
	jar, _ := cookiejar.New(nil)
	b := &ltiBrowserT{browser: &browser{t: t, f: f}}
	// A page of the tool's posts with the tool's Origin, as a browser's
	// form does (the class's writes require it).
	b.c = &http.Client{Jar: jar, Transport: origin{url: f.url}, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		b.last = req.URL
		return nil
	}}
	return b
}

// launch runs a launch of link by sub in b and returns the page it ends on.
func launch(t *testing.T, b *ltiBrowserT, p *ltitest.Platform, sub, link string) (reply, *url.URL) {
	t.Helper()
	action, form, err := p.LaunchForm(b.c, sub, link)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, action, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r := b.do(req)
	return r, b.last
}

func TestLTILaunchLandsSignedInOnTheExercise(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		f, p := ltiClass(t, target)
		b := ltiBrowser(t, f)
		r, at := launch(t, b, p, "sub-ada", "link-gcra")
		if r.code != 200 || at.Path != "/class/exercises/gcra" {
			t.Fatalf("the launch ended on %s with %d; want gcra's page, 200", at, r.code)
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(r.body))
		if who := doc.Find("[data-testid=whoami]").Text(); who != "Ada Lovelace" {
			t.Errorf("signed in as %q, want Ada Lovelace", who)
		}
		// The platform may frame the class's pages, and only it.
		csp := r.header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'self' "+p.URL) || r.header.Get("X-Frame-Options") != "" {
			t.Errorf("a class page's framing: CSP %q, X-Frame-Options %q; want frame-ancestors naming %s and no X-Frame-Options", csp, r.header.Get("X-Frame-Options"), p.URL)
		}
		// A school's Canvas is not its issuer: the origin its launches name
		// may frame the class too.
		p.Next(ltitest.Options{Claims: func(c map[string]any) {
			c["https://purl.imsglobal.org/spec/lti/claim/launch_presentation"] = map[string]any{"return_url": "https://school.instructure.com/courses/1/external_content/success"}
		}})
		if r, _ := launch(t, b, p, "sub-ada", "link-gcra"); !strings.Contains(r.header.Get("Content-Security-Policy"), "https://school.instructure.com") {
			t.Errorf("after a launch naming the school's Canvas, the CSP = %q; want it among the frame ancestors", r.header.Get("Content-Security-Policy"))
		}
		// The lab's own pages stay unframable.
		if home := b.get("/"); !strings.Contains(home.header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("the home page's CSP = %q, want frame-ancestors 'none'", home.header.Get("Content-Security-Policy"))
		}
		// A learner is no instructor.
		if r := b.get("/class/lti"); r.code != http.StatusForbidden {
			t.Errorf("a learner opening /class/lti: %d, want 403", r.code)
		}
	})
}

func TestLTIRefusedLaunchSaysWhy(t *testing.T) {
	f, p := ltiClass(t, filepathSQLite(t))
	p.Next(ltitest.Options{Key: ltitest.None})
	b := ltiBrowser(t, f)
	r, _ := launch(t, b, p, "sub-ada", "link-gcra")
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if msg := doc.Find("[data-testid=error-message]").Text(); !strings.Contains(msg, "not signed (alg none)") {
		t.Errorf("a launch with alg none answered %q, want the refusal's reason", msg)
	}
	if r := b.get("/class/me"); b.last == nil || b.last.Path != "/class/login" {
		t.Errorf("after a refused launch, /class/me answers %d at %v: someone was signed in", r.code, b.last)
	}
}

func TestLTIDeepLinkingThroughThePicker(t *testing.T) {
	f, p := ltiClass(t, filepathSQLite(t))
	b := ltiBrowser(t, f)
	r, at := launch(t, b, p, "sub-teacher", "deeplink")
	if r.code != 200 || at.Path != lti.PickerPath {
		t.Fatalf("the deep-linking launch ended on %s with %d; want the picker", at, r.code)
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	form := url.Values{"pick": {"exercise:gcra", "exercise:tokenbucket"}}
	doc.Find("[data-testid=picker] input[type=hidden]").Each(func(_ int, s *goquery.Selection) {
		form.Set(s.AttrOr("name", ""), s.AttrOr("value", ""))
	})
	ret := b.postForm(lti.PickerPath, form)
	doc, _ = goquery.NewDocumentFromReader(strings.NewReader(ret.body))
	action := doc.Find("[data-testid=return-form]").AttrOr("action", "")
	jwt := doc.Find("[data-testid=return-form] input[name=JWT]").AttrOr("value", "")
	if ret.code != 200 || action != p.URL+"/deeplink" || jwt == "" {
		t.Fatalf("the pick answered %d with a form to %q; want 200 and a form to the platform's return URL", ret.code, action)
	}
	if csp := ret.header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' "+p.URL) {
		t.Errorf("the return page's CSP = %q, want form-action allowing %s", csp, p.URL)
	}
	resp, err := b.c.PostForm(action, url.Values{"JWT": {jwt}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var labels []string
	for _, li := range p.LineItems() {
		labels = append(labels, li.Label)
	}
	if resp.StatusCode != 200 || strings.Join(labels, ",") != "gcra,ratelab: Token bucket,ratelab: GCRA" {
		t.Errorf("after the return (%s) the platform's line items = %v; want two new ones", resp.Status, labels)
	}
}

func TestLTIPageListsPlatformsScoresAndRoster(t *testing.T) {
	f, p := ltiClass(t, filepathSQLite(t))
	b := ltiBrowser(t, f)
	launch(t, b, p, "sub-ada", "link-gcra")
	teacher := ltiBrowser(t, f)
	launch(t, teacher, p, "sub-teacher", "link-gcra")
	r := teacher.get("/class/lti")
	if r.code != 200 {
		t.Fatalf("/class/lti = %d", r.code)
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if got := doc.Find("[data-testid=lti-platforms] td").First().Text(); got != "Test platform" {
		t.Errorf("platforms table starts with %q, want Test platform", got)
	}
	if got := doc.Find("[data-testid=lti-config]").Text(); !strings.Contains(got, f.url+"/lti/launch") {
		t.Errorf("the class's addresses = %q, want the launch URL", got)
	}
	grace := doc.Find(`[data-testid="lti-member-Grace Hopper"]`).Text()
	ada := doc.Find(`[data-testid="lti-member-Ada Lovelace"]`).Text()
	if !strings.Contains(grace, "not launched yet") || !strings.Contains(ada, "as Ada Lovelace") {
		t.Errorf("roster rows: grace %q, ada %q; want grace not launched yet, ada in the class", grace, ada)
	}
}

func filepathSQLite(t *testing.T) string { return storetest.Backends[0].Target(t) }

func TestLTIDynamicRegistration(t *testing.T) {
	f, p, tool := ltiClassWith(t, filepathSQLite(t), false, false)
	b := ltiBrowser(t, f)
	// Before: the platform is unknown.
	if _, _, err := p.LaunchForm(b.c, "sub-ada", "link-gcra"); err == nil || !strings.Contains(err.Error(), "no platform is registered") {
		t.Fatalf("a launch from an unregistered platform: %v; want refused, no platform registered", err)
	}
	// Without a key of the class's, nobody registers.
	r := b.get(strings.TrimPrefix(p.DynamicRegistration(f.url+lti.RegisterPath+"?key=made-up"), f.url))
	if r.code != http.StatusBadRequest || !strings.Contains(r.body, "not one of the class") || p.Registered() != nil {
		t.Fatalf("registration with a made-up key = %d, registered %v; want 400, nothing registered", r.code, p.Registered())
	}
	regURL, err := tool.RegistrationURL(t.Context(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	r = b.get(strings.TrimPrefix(p.DynamicRegistration(regURL), f.url))
	if r.code != 200 || !strings.Contains(r.body, "registered with test-platform") {
		t.Fatalf("dynamic registration = %d\n%s", r.code, r.body)
	}
	csp := r.header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self' 'sha256-") || !strings.Contains(csp, "frame-ancestors *") {
		t.Errorf("the registration page's CSP = %q; want its script allowed by hash, and any frame", csp)
	}
	if reg := p.Registered(); reg["initiate_login_uri"] != f.url+"/lti/login" || reg["jwks_uri"] != f.url+"/lti/jwks" {
		t.Errorf("the tool registered %v", reg)
	}
	// The same URL again: spent.
	if r := b.get(strings.TrimPrefix(p.DynamicRegistration(regURL), f.url)); r.code != http.StatusBadRequest || !strings.Contains(r.body, "used already") {
		t.Errorf("the registration URL a second time = %d; want 400, used already", r.code)
	}
	// After: launches are taken.
	if _, at := launch(t, b, p, "sub-ada", "link-gcra"); at == nil || at.Path != "/class/exercises/gcra" {
		t.Errorf("a launch after the dynamic registration ended on %v; want gcra's page", at)
	}
}

func TestLTIPageRegistersPlatforms(t *testing.T) {
	f, p, _ := ltiClassWith(t, filepathSQLite(t), false, false)
	teacher := f.instructor(t)
	form := func(r reply) url.Values {
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(r.body))
		return url.Values{"_csrf": {doc.Find("[data-testid=lti-add-platform] input[name=_csrf]").AttrOr("value", "")}}
	}
	v := form(teacher.get("/class/lti"))
	v.Set("issuer", p.URL)
	r := teacher.postForm("/class/lti/platforms", v)
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if got := doc.Find("[data-testid=lti-problems]").Text(); r.code != http.StatusUnprocessableEntity || !strings.Contains(got, "the client id is required") {
		t.Errorf("registering with fields missing = %d %q; want 422 naming the client id", r.code, got)
	}
	reg := p.Registration()
	v = form(teacher.get("/class/lti"))
	for k, val := range map[string]string{"name": reg.Name, "issuer": reg.Issuer, "client_id": reg.ClientID, "deployments": reg.Deployments[0],
		"login_url": reg.AuthLoginURL, "token_url": reg.TokenURL, "jwks_url": reg.JWKSURL} {
		v.Set(k, val)
	}
	r = teacher.postForm("/class/lti/platforms", v)
	doc, _ = goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if got := doc.Find("[data-testid=lti-notice]").Text(); r.code != 200 || !strings.Contains(got, "Registered "+p.URL) {
		t.Fatalf("registering by hand = %d %q", r.code, got)
	}
	b := ltiBrowser(t, f)
	if _, at := launch(t, b, p, "sub-ada", "link-gcra"); at == nil || at.Path != "/class/exercises/gcra" {
		t.Errorf("a launch after registering on the page ended on %v; want gcra's page", at)
	}
	r = teacher.postForm("/class/lti/register-url", form(teacher.get("/class/lti")))
	doc, _ = goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if u := doc.Find("[data-testid=lti-registration-url]").AttrOr("value", ""); !strings.HasPrefix(u, f.url+"/lti/register?key=") {
		t.Errorf("the registration URL made on the page = %q", u)
	}
}

// TestLTISessionCookieFitsTheFrame: over HTTPS the session a launch opens
// is SameSite=None, Secure and Partitioned, so that it reaches the class
// inside the platform's frame; over HTTP, where browsers refuse None
// without Secure, it is Lax.
func TestLTISessionCookieFitsTheFrame(t *testing.T) {
	for _, tc := range []struct {
		https bool
		want  []string
		not   []string
	}{
		{true, []string{"Secure", "SameSite=None", "Partitioned", "HttpOnly"}, nil},
		{false, []string{"SameSite=Lax", "HttpOnly"}, []string{"Secure", "SameSite=None"}},
	} {
		f, p, _ := ltiClassWith(t, filepathSQLite(t), true, tc.https)
		b := ltiBrowser(t, f)
		action, form, err := p.LaunchForm(b.c, "sub-ada", "link-gcra")
		if err != nil {
			t.Fatal(err)
		}
		direct := &http.Client{Jar: b.c.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := direct.PostForm(action, form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var session string
		for _, c := range resp.Header.Values("Set-Cookie") {
			if strings.HasPrefix(c, "ratelab_session=") {
				session = c
			}
		}
		for _, w := range tc.want {
			if !strings.Contains(session, w) {
				t.Errorf("https %v: the launch's session cookie %q lacks %s", tc.https, session, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(session, w) {
				t.Errorf("https %v: the launch's session cookie %q has %s", tc.https, session, w)
			}
		}
	}
}
