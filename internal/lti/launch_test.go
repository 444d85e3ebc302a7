package lti_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ratelab/internal/lti"
	"ratelab/internal/lti/ltitest"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// clock is a clock tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// harness is a tool served on 127.0.0.1 (its LTI paths only, answering
// a launch with its user and landing, a refusal with 400 and its reason),
// and a test platform registered with it.
type harness struct {
	tool     *lti.Tool
	platform *ltitest.Platform
	st       *store.Store
	clock    *clock
	url      string
}

func newHarness(t *testing.T, target string) *harness {
	t.Helper()
	ctx := t.Context()
	h := &harness{clock: &clock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}}
	st, err := store.Open(ctx, target, h.clock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h.st = st
	mux := http.NewServeMux()
	mux.HandleFunc("/lti/login", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		l, err := h.tool.Login(r.Context(), r.Form)
		if err != nil {
			refused(w, err)
			return
		}
		http.SetCookie(w, l.Cookie)
		http.Redirect(w, r, l.Redirect, http.StatusFound)
	})
	mux.HandleFunc("POST /lti/launch", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		var cookie string
		if c, err := r.Cookie(lti.StateCookie(r.PostForm.Get("state"))); err == nil {
			cookie = c.Value
		}
		l, err := h.tool.Launch(r.Context(), r.PostForm, cookie)
		if err != nil {
			refused(w, err)
			return
		}
		fmt.Fprintf(w, "%s|%s|%s", l.User.Name, l.User.Role, l.Landing())
		if l.DeepLinking != nil {
			tok, err := h.tool.PickerToken(r.Context(), l)
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			fmt.Fprintf(w, "|%d|%s", l.User.ID, tok)
		}
	})
	mux.HandleFunc("GET /lti/jwks", func(w http.ResponseWriter, r *http.Request) {
		set, err := h.tool.JWKS(r.Context())
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		json.NewEncoder(w).Encode(set)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	h.url = srv.URL
	h.platform = ltitest.New(t, srv.URL, h.clock.Now)
	h.tool, err = lti.New(ctx, lti.Config{Store: st, Clock: h.clock, URL: srv.URL, RetryDelay: time.Second,
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.platform.Register(ctx, st); err != nil {
		t.Fatal(err)
	}
	h.platform.AddLink("link-gcra", "gcra", 25)
	return h
}

func refused(w http.ResponseWriter, err error) {
	var re *lti.RefusedError
	if errors.As(err, &re) {
		w.Header().Set("X-Refused", string(re.Reason))
	}
	http.Error(w, err.Error(), http.StatusBadRequest)
}

// launch runs a launch of link by sub in a new browser and returns the
// tool's answer: its status, the refusal's reason and the body.
func (h *harness) launch(t *testing.T, sub, link string) (int, string, string) {
	t.Helper()
	b := ltitest.Browser()
	action, form, err := h.platform.LaunchForm(b, sub, link)
	if err != nil {
		t.Fatal(err)
	}
	return post(t, b, action, form)
}

func post(t *testing.T, b *http.Client, action string, form map[string][]string) (int, string, string) {
	t.Helper()
	resp, err := b.PostForm(action, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("X-Refused"), strings.TrimSpace(string(body))
}

func TestLaunchSignsInAndLands(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		h := newHarness(t, target)
		code, reason, body := h.launch(t, "sub-ada", "link-gcra")
		if code != 200 || body != "Ada Lovelace|learner|/class/exercises/gcra" {
			t.Fatalf("learner's launch = %d %s %q, want 200 and Ada Lovelace, a learner, on gcra's page", code, reason, body)
		}
		// Again: the same user, not a second one.
		if _, _, body := h.launch(t, "sub-ada", "link-gcra"); body != "Ada Lovelace|learner|/class/exercises/gcra" {
			t.Errorf("second launch = %q, want the same user", body)
		}
		if _, _, body := h.launch(t, "sub-teacher", "link-gcra"); body != "Tess Teacher|instructor|/class/exercises/gcra" {
			t.Errorf("instructor's launch = %q, want Tess Teacher as an instructor", body)
		}
		learners, err := h.st.Users(t.Context(), store.Learner)
		if err != nil || len(learners) != 1 || learners[0].Name != "Ada Lovelace" {
			t.Errorf("learners after three launches = %v, %v; want Ada Lovelace once", learners, err)
		}
		// The existing token sign-in keeps working beside it.
		if _, err := h.st.AddLearner(t.Context(), "bob", store.Hash("bob-token")); err != nil {
			t.Fatal(err)
		}
		if u, err := h.st.LearnerByToken(t.Context(), store.Hash("bob-token")); err != nil || u.Name != "bob" {
			t.Errorf("token sign-in beside LTI: %v, %v", u, err)
		}
	})
}

func TestLaunchNameClashGetsANumber(t *testing.T) {
	h := newHarness(t, storetest.Backends[0].Target(t))
	if _, err := h.st.AddLearner(t.Context(), "Ada Lovelace", store.Hash("x")); err != nil {
		t.Fatal(err)
	}
	if _, _, body := h.launch(t, "sub-ada", "link-gcra"); body != "Ada Lovelace (2)|learner|/class/exercises/gcra" {
		t.Errorf("launch of a name taken = %q, want Ada Lovelace (2)", body)
	}
}

// TestLaunchRefusals plays the IMS certification suite's negative cases:
// each is refused, with its reason and a sentence saying what is wrong.
func TestLaunchRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		h := newHarness(t, target)
		cases := []struct {
			name   string
			opts   ltitest.Options
			reason lti.Reason
			says   string
		}{
			{"expired", ltitest.Options{Claims: func(c map[string]any) {
				c["iat"], c["exp"] = h.clock.Now().Add(-2*time.Hour).Unix(), h.clock.Now().Add(-time.Hour).Unix()
			}}, lti.ReasonExpired, "expired at"},
			{"issued in the future", ltitest.Options{Claims: func(c map[string]any) {
				c["iat"], c["exp"] = h.clock.Now().Add(time.Hour).Unix(), h.clock.Now().Add(2*time.Hour).Unix()
			}}, lti.ReasonIssuedAt, "in the future"},
			{"wrong audience", ltitest.Options{Claims: func(c map[string]any) { c["aud"] = "another-tool" }}, lti.ReasonAudience, "another-tool"},
			{"wrong azp", ltitest.Options{Claims: func(c map[string]any) {
				c["aud"], c["azp"] = []string{h.platform.ClientID, "another-tool"}, "another-tool"
			}}, lti.ReasonAudience, "azp"},
			{"unknown deployment", ltitest.Options{Claims: func(c map[string]any) {
				c["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] = "deployment-9"
			}}, lti.ReasonDeployment, `"deployment-9"`},
			{"unknown kid", ltitest.Options{Key: ltitest.UnknownKey}, lti.ReasonUnknownKey, `"not-published"`},
			{"alg none", ltitest.Options{Key: ltitest.None}, lti.ReasonAlgorithm, "not signed"},
			{"HMAC", ltitest.Options{Key: ltitest.HMAC}, lti.ReasonAlgorithm, "shared secret"},
			{"learner claims the instructor role", ltitest.Options{Raw: func(raw string) string {
				return ltitest.TamperClaims(raw, func(c map[string]any) {
					c["https://purl.imsglobal.org/spec/lti/claim/roles"] = []string{ltitest.RoleInstructor}
				})
			}}, lti.ReasonSignature, "changed after the platform signed it"},
			{"another nonce", ltitest.Options{Claims: func(c map[string]any) { c["nonce"] = "made-up" }}, lti.ReasonNonce, "not one this class issued"},
			{"wrong version", ltitest.Options{Claims: func(c map[string]any) {
				c["https://purl.imsglobal.org/spec/lti/claim/version"] = "1.1"
			}}, lti.ReasonMessage, `"1.1"`},
			{"no resource link", ltitest.Options{Claims: func(c map[string]any) {
				delete(c, "https://purl.imsglobal.org/spec/lti/claim/resource_link")
			}}, lti.ReasonMalformed, "resource link id"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				h.platform.Next(tc.opts)
				code, reason, body := h.launch(t, "sub-ada", "link-gcra")
				if code != 400 || reason != string(tc.reason) || !strings.Contains(body, tc.says) {
					t.Errorf("launch = %d %s %q; want 400, reason %s, saying %q", code, reason, body, tc.reason, tc.says)
				}
			})
		}
		learners, err := h.st.Users(t.Context(), store.Learner)
		if err != nil || len(learners) != 0 {
			t.Errorf("learners after refused launches = %v, %v; want none", learners, err)
		}
		instructors, err := h.st.Users(t.Context(), store.Instructor)
		if err != nil || len(instructors) != 0 {
			t.Errorf("instructors after refused launches = %v, %v; want none", instructors, err)
		}
	})
}

func TestLaunchReusedNonceAndForeignBrowser(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		h := newHarness(t, target)
		b := ltitest.Browser()
		action, form, err := h.platform.LaunchForm(b, "sub-ada", "link-gcra")
		if err != nil {
			t.Fatal(err)
		}
		// Another browser posting the same form: its state is not bound there.
		if code, reason, body := post(t, ltitest.Browser(), action, form); code != 400 || reason != string(lti.ReasonState) {
			t.Errorf("the launch in another browser = %d %s %q, want 400 state", code, reason, body)
		}
		if code, _, body := post(t, b, action, form); code != 200 {
			t.Fatalf("the launch = %d %q, want 200", code, body)
		}
		if code, reason, body := post(t, b, action, form); code != 400 || reason != string(lti.ReasonNonceReused) || !strings.Contains(body, "used already") {
			t.Errorf("the same launch again = %d %s %q, want 400 nonce-reused", code, reason, body)
		}
	})
}

func TestLaunchAfterKeyRotation(t *testing.T) {
	h := newHarness(t, storetest.Backends[0].Target(t))
	if code, _, body := h.launch(t, "sub-ada", "link-gcra"); code != 200 {
		t.Fatalf("first launch = %d %q", code, body)
	}
	kid := h.platform.Rotate()
	// Within refetchEvery of the last read, an unknown kid is refused
	// without hammering the platform; after it, the set is read again.
	if code, reason, _ := h.launch(t, "sub-ada", "link-gcra"); code != 400 || reason != string(lti.ReasonUnknownKey) {
		t.Errorf("launch with %s just after the key set was read = %d %s, want 400 unknown-key", kid, code, reason)
	}
	h.clock.Add(11 * time.Second)
	if code, reason, body := h.launch(t, "sub-ada", "link-gcra"); code != 200 {
		t.Errorf("launch signed with the rotated key %s = %d %s %q, want 200", kid, code, reason, body)
	}
}

func TestLoginRefusals(t *testing.T) {
	h := newHarness(t, storetest.Backends[0].Target(t))
	for _, tc := range []struct {
		name, query string
		reason      lti.Reason
	}{
		{"unknown issuer", "iss=https://elsewhere.example&login_hint=x&target_link_uri=" + h.url + "/lti/launch", lti.ReasonPlatform},
		{"unknown deployment", "iss=" + h.platform.URL + "&login_hint=x&lti_deployment_id=nine&target_link_uri=" + h.url + "/lti/launch", lti.ReasonDeployment},
		{"foreign target", "iss=" + h.platform.URL + "&login_hint=x&target_link_uri=https://evil.example/", lti.ReasonMalformed},
		{"no hint", "iss=" + h.platform.URL + "&target_link_uri=" + h.url + "/lti/launch", lti.ReasonMalformed},
	} {
		resp, err := http.Get(h.url + "/lti/login?" + tc.query)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 || resp.Header.Get("X-Refused") != string(tc.reason) {
			t.Errorf("%s: login = %d %s, want 400 %s", tc.name, resp.StatusCode, resp.Header.Get("X-Refused"), tc.reason)
		}
	}
}

func TestJWKSKeepsRotatedKeys(t *testing.T) {
	h := newHarness(t, storetest.Backends[0].Target(t))
	ctx := context.Background()
	before, err := h.tool.JWKS(ctx)
	if err != nil || len(before.Keys) != 1 {
		t.Fatalf("JWKS = %v, %v; want one key", before, err)
	}
	if _, err := h.tool.Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := h.tool.JWKS(ctx)
	if err != nil || len(after.Keys) != 2 || after.Keys[1].KeyID != before.Keys[0].KeyID || after.Keys[0].KeyID == before.Keys[0].KeyID {
		t.Fatalf("JWKS after Rotate = %v, %v; want the new key first and the old one kept", after, err)
	}
	for _, k := range after.Keys {
		if !k.IsPublic() {
			t.Errorf("JWKS publishes a private key %s", k.KeyID)
		}
	}
}
