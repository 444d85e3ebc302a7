package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"ratelab/internal/store/storetest"
)

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
