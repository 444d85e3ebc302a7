package server_test

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"ratelab/internal/server"
	"ratelab/internal/store"
)

// planted is a CSRF token a page of a sibling subdomain
// (evil.class.example beside class.example) set for the parent domain as
// ratelab_csrf, and puts in its forms' _csrf field.
const planted = "planted-token-planted-token-planted-token"

// forged posts a form as a page of a sibling subdomain makes the browser
// of b's user post it: b's session cookie, the planted CSRF cookie ahead
// of b's own, the sibling's Origin and Sec-Fetch-Site: same-site.
func forged(t *testing.T, b *browser, path, contentType, body string) reply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, b.f.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Origin", "https://evil.class.example")
	req.Header.Set("Sec-Fetch-Site", "same-site")
	req.AddCookie(&http.Cookie{Name: "ratelab_csrf", Value: planted})
	req.AddCookie(&http.Cookie{Name: "__Host-ratelab_csrf", Value: planted})
	return b.do(req)
}

// TestClassForgedFormsFromASiblingSite posts the forms a page on a sibling
// subdomain forged in the third hostile round: an extension in the
// instructor's name, a submission in a learner's name, a sign-in as the
// attacker. Each carries a CSRF token the page planted in a cookie and in
// the form alike; each is refused, and changes nothing.
func TestClassForgedFormsFromASiblingSite(t *testing.T) {
	f := newClass(t)
	ctx := t.Context()

	prof := f.instructor(t)
	if r := dueForm(t, prof, "/class/course/due", "due-form", url.Values{"target": {"week:1"}, "at": {"2026-03-02T12:00"}, "tz": {"UTC"}, "late": {"refuse"}}); r.code != http.StatusSeeOther {
		t.Fatalf("prof's due date for week 1 = %d; want 303", r.code)
	}
	ext := url.Values{"_csrf": {planted}, "learner": {"ada"}, "target": {"week:1"}, "until": {"2027-01-01T00:00"}}
	if r := forged(t, prof, "/class/course/extend", "application/x-www-form-urlencoded", ext.Encode()); r.code != http.StatusForbidden {
		t.Errorf("a forged extension in prof's name = %d; want 403:\n%s", r.code, r.body)
	}
	if exts, err := f.st.Extensions(ctx); err != nil || len(exts) != 0 {
		t.Errorf("after the forged extension: %v, %v; want none granted", exts, err)
	}

	ada := f.browser(t)
	if r := ada.signIn(url.Values{"token": {adaToken}}); r.code != http.StatusSeeOther {
		t.Fatalf("ada signing in = %d", r.code)
	}
	ct, body := multipartBody(t, part{`form-data; name="_csrf"`, planted}, exercise("tokenbucket"), file("tokenbucket.go", okSource))
	if r := forged(t, ada, "/class/submissions", ct, body.String()); r.code != http.StatusForbidden {
		t.Errorf("a forged submission in ada's name = %d; want 403:\n%s", r.code, r.body)
	}
	u, err := f.st.LearnerByToken(ctx, store.Hash(adaToken))
	if err != nil {
		t.Fatal(err)
	}
	if subs, err := f.st.Submissions(ctx, u.ID, 10); err != nil || len(subs) != 0 {
		t.Errorf("after the forged submission, ada has %d submissions (%v); want none", len(subs), err)
	}

	victim := f.browser(t)
	victim.get("/class/login") // the victim's browser has opened the class
	signIn := url.Values{"_csrf": {planted}, "token": {bobToken}}
	r := forged(t, victim, "/class/login", "application/x-www-form-urlencoded", signIn.Encode())
	if r.code != http.StatusForbidden || victim.hasSession() {
		t.Errorf("a forced sign-in as bob = %d, session %v; want 403 and no session", r.code, victim.hasSession())
	}

	// The same forms from the class's own pages go through.
	if r := dueForm(t, prof, "/class/course/extend", "extend-form", url.Values{"learner": {"ada"}, "target": {"week:1"}, "until": {"2027-01-01T00:00"}}); r.code != http.StatusSeeOther {
		t.Errorf("prof's own extension = %d; want 303:\n%s", r.code, r.body)
	}
}

// TestClassWritesOnlyFromThisOrigin: a browser's write is accepted from
// this server's origin alone, whatever token it carries; without Origin,
// only Sec-Fetch-Site: same-origin stands for it.
func TestClassWritesOnlyFromThisOrigin(t *testing.T) {
	f := newClass(t)
	ada := f.browser(t)
	if r := ada.signIn(url.Values{"token": {adaToken}}); r.code != http.StatusSeeOther {
		t.Fatalf("ada signing in = %d", r.code)
	}
	tok := ada.csrf()
	u, _ := url.Parse(f.url)
	for _, tt := range []struct {
		name   string
		header []string
		want   int
	}{
		{"this origin", []string{"Origin", f.url}, http.StatusOK},
		{"this origin, the default port named", []string{"Origin", "http://" + u.Hostname() + ":80"}, http.StatusForbidden},
		{"a sibling subdomain", []string{"Origin", "http://evil." + u.Host}, http.StatusForbidden},
		{"another port", []string{"Origin", "http://" + u.Hostname() + ":1"}, http.StatusForbidden},
		{"an opaque origin", []string{"Origin", "null"}, http.StatusForbidden},
		{"no origin, same-origin fetch", []string{"Origin", "", "Sec-Fetch-Site", "same-origin"}, http.StatusOK},
		{"no origin, same-site fetch", []string{"Origin", "", "Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
		{"no origin, nothing said", []string{"Origin", ""}, http.StatusForbidden},
		{"this origin, same-site fetch", []string{"Origin", f.url, "Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
	} {
		req, _ := http.NewRequest(http.MethodPut, f.url+"/class/api/drafts/tokenbucket", strings.NewReader(`{"files":{"tokenbucket.go":"package tokenbucket\n"}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", tok)
		for i := 0; i+1 < len(tt.header); i += 2 {
			req.Header[tt.header[i]] = []string{tt.header[i+1]}
			if tt.header[i+1] == "" {
				delete(req.Header, tt.header[i])
				req.Header["Origin"] = nil // kept absent: the test's transport adds none
			}
		}
		if r := ada.do(req); r.code != tt.want {
			t.Errorf("%s: PUT a draft = %d; want %d: %s", tt.name, r.code, tt.want, r.body)
		}
	}
}

// TestClassCookiesOnHTTPS: on HTTPS the session and CSRF cookies are
// __Host- cookies, which a sibling subdomain cannot set; a plain
// ratelab_csrf cookie it planted is not read.
func TestClassCookiesOnHTTPS(t *testing.T) {
	f := newClassWith(t, fixtureOptions{tls: true})
	ada := f.browser(t)
	r := ada.get("/class/login")
	var names []string
	for _, ck := range (&http.Response{Header: r.header}).Cookies() {
		names = append(names, ck.Name)
		if !ck.Secure || ck.Path != "/" || ck.Domain != "" {
			t.Errorf("cookie %s: Secure %v, Path %q, Domain %q; want a __Host- cookie's", ck.Name, ck.Secure, ck.Path, ck.Domain)
		}
	}
	if len(names) != 1 || names[0] != "__Host-ratelab_csrf" {
		t.Errorf("the login page over HTTPS sets %q; want __Host-ratelab_csrf", names)
	}
	if r := ada.signIn(url.Values{"token": {adaToken}}); r.code != http.StatusSeeOther || !strings.Contains(r.header.Get("Set-Cookie"), "__Host-ratelab_session=") {
		t.Fatalf("ada signing in over HTTPS = %d, Set-Cookie %q; want 303 and __Host-ratelab_session", r.code, r.header.Get("Set-Cookie"))
	}
	if r := ada.get("/class/me"); r.code != http.StatusOK {
		t.Errorf("ada's page after signing in over HTTPS = %d; want 200", r.code)
	}
	// From this very origin, with a token planted as a plain cookie and
	// in the form: the token is read from the __Host- cookie alone.
	req, _ := http.NewRequest(http.MethodPost, f.url+"/class/logout", strings.NewReader(url.Values{"_csrf": {planted}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: "ratelab_csrf", Value: planted})
	if r := ada.do(req); r.code != http.StatusForbidden {
		t.Errorf("a sign-out with a planted plain cookie = %d; want 403", r.code)
	}
	// A page served over plain HTTP of the same host is another origin.
	req, _ = http.NewRequest(http.MethodPost, f.url+"/class/logout", strings.NewReader(url.Values{"_csrf": {ada.csrf()}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", strings.Replace(f.url, "https://", "http://", 1))
	if r := ada.do(req); r.code != http.StatusForbidden {
		t.Errorf("a sign-out from http:// of an HTTPS server = %d; want 403", r.code)
	}
}

// TestClassHTTPSBehindATrustedProxy: a TLS proxy in front says
// X-Forwarded-Proto: https and the host it was asked (X-Forwarded-Host);
// from a trusted proxy, the class then sets __Host- cookies and takes that
// host as its origin. From anyone else those headers are ignored.
func TestClassHTTPSBehindATrustedProxy(t *testing.T) {
	lim := &server.Limits{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	for _, trusted := range []bool{true, false} {
		o := fixtureOptions{}
		if trusted {
			o.limits = lim
		}
		f := newClassWith(t, o)
		b := f.browser(t)
		get, _ := http.NewRequest(http.MethodGet, f.url+"/class/login", nil)
		get.Header.Set("X-Forwarded-Proto", "https")
		cookies := b.do(get).header.Get("Set-Cookie")
		if got := strings.HasPrefix(cookies, "__Host-ratelab_csrf="); got != trusted {
			t.Errorf("trusted %v: Set-Cookie %q; want a __Host- cookie only through a trusted proxy", trusted, cookies)
		}
		form := url.Values{"token": {adaToken}, "_csrf": {"whatever"}}
		post, _ := http.NewRequest(http.MethodPost, f.url+"/class/login", strings.NewReader(form.Encode()))
		post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		post.Header.Set("X-Forwarded-Proto", "https")
		post.Header.Set("X-Forwarded-Host", "class.example")
		post.Header.Set("Origin", "https://class.example")
		post.Header.Set("Sec-Fetch-Site", "same-origin")
		want := http.StatusForbidden
		if trusted {
			want = http.StatusSeeOther
		}
		if r := b.do(post); r.code != want {
			t.Errorf("trusted %v: a sign-in from https://class.example through the proxy = %d; want %d", trusted, r.code, want)
		}
	}
}
