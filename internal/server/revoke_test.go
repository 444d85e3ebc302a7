package server_test

import (
	"net/http"
	"net/url"
	"testing"

	"ratelab/internal/store"
)

func TestRevokedLearnerIsSignedOut(t *testing.T) {
	f := newClass(t)
	ctx := t.Context()
	signedIn := func(name, token string) *browser {
		b := f.browser(t)
		if r := b.signIn(url.Values{"token": {token}}); r.code != http.StatusSeeOther {
			t.Fatalf("%s signing in = %d; want 303", name, r.code)
		}
		if r := b.get("/class/me"); r.code != http.StatusOK {
			t.Fatalf("%s: GET /class/me = %d; want 200", name, r.code)
		}
		return b
	}
	signedOut := func(b *browser, who string) {
		t.Helper()
		if r := b.get("/class/me"); r.code != http.StatusSeeOther || r.header.Get("Location") != "/class/login" {
			t.Errorf("GET /class/me with %s's old session = %d to %q; want 303 to /class/login", who, r.code, r.header.Get("Location"))
		}
	}

	ada := signedIn("ada", adaToken)
	if err := f.st.SetLearnerToken(ctx, "ada", store.Hash("rl_ada-new")); err != nil {
		t.Fatal(err)
	}
	signedOut(ada, "ada")
	if r := f.browser(t).get("/class/me", "Authorization", "Bearer "+adaToken); r.code != http.StatusUnauthorized {
		t.Errorf("GET /class/me with ada's old token = %d; want 401", r.code)
	}
	signedIn("ada", "rl_ada-new")

	f.submit(t, bobToken)
	bob := signedIn("bob", bobToken)
	if _, err := f.st.RemoveLearner(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	signedOut(bob, "bob")
	if r := f.browser(t).get("/class/me", "Authorization", "Bearer "+bobToken); r.code != http.StatusUnauthorized {
		t.Errorf("GET /class/me with bob's token after his removal = %d; want 401", r.code)
	}
}
