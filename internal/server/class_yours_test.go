package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"ratelab/internal/server"
	"ratelab/internal/store"
	"ratelab/internal/yours"
)

// fakeBuilds answers each learner's build from a table the test sets.
type fakeBuilds struct {
	mu      sync.Mutex
	state   map[int64]yours.Status
	weeks   []int    // the weeks asked for, in order
	ensured []string // the builds asked to be made here
	mine    map[int64][]string
}

func (f *fakeBuilds) Want(_ context.Context, user int64, week int) (yours.Status, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.weeks = append(f.weeks, week)
	return f.state[user], nil
}

func (f *fakeBuilds) Ensure(_ context.Context, user int64, name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ensured = append(f.ensured, name)
	return false
}

func (f *fakeBuilds) Mine(_ context.Context, user int64, name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Contains(f.mine[user], name)
}

// nopCloser is a build in memory, as Open returns a file.
type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }

func (f *fakeBuilds) Open(name string, accept func(string) bool) (io.ReadSeekCloser, string, bool) {
	if name != strings.Repeat("ab", 32) {
		return nil, "", false
	}
	for _, enc := range []string{"br", "gzip"} {
		if accept(enc) {
			return nopCloser{strings.NewReader(enc + " copy")}, enc, true
		}
	}
	return nopCloser{strings.NewReader("\x00asm raw")}, "", true
}

func TestClassYours(t *testing.T) {
	fb := &fakeBuilds{state: map[int64]yours.Status{}}
	f := newClassWith(t, fixtureOptions{class: server.Class{Yours: fb}})
	u, err := f.st.LearnerByToken(t.Context(), store.Hash(adaToken))
	if err != nil {
		t.Fatal(err)
	}
	key := strings.Repeat("ab", 32)
	fb.state[u.ID] = yours.Status{State: yours.Building, Key: key}
	fb.mine = map[int64][]string{u.ID: {key, strings.Repeat("cd", 32)}}

	stranger := f.browser(t)
	if r := stranger.get("/class/api/yours", "Accept", "application/json"); r.code != http.StatusUnauthorized {
		t.Errorf("GET /class/api/yours signed out = %d; want 401", r.code)
	}
	if r := stranger.get("/class/yours/" + key + ".wasm"); r.code != http.StatusSeeOther {
		t.Errorf("GET a build signed out = %d; want 303 to the login", r.code)
	}

	ada := f.browser(t)
	if r := ada.signIn(url.Values{"token": {adaToken}}); r.code != http.StatusSeeOther {
		t.Fatalf("ada signing in = %d", r.code)
	}
	// Her home links the lessons; a lesson names her build's endpoint.
	home := ada.get("/class/me")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(home.body))
	if err != nil {
		t.Fatal(err)
	}
	link, ok := doc.Find(`[data-testid=class-lessons] a`).First().Attr("href")
	if !ok || !strings.HasPrefix(link, "/class/lessons/") {
		t.Fatalf("ada's home links no class lesson (first link %q)", link)
	}
	lesson := ada.get(link)
	// This server has no lab.wasm: the lesson runs no visualization, and
	// says nothing of her build (web/page's TestClassYoursStateOnlyWithTheVisualizations;
	// the browser test runs them).
	if lesson.code != http.StatusOK || !strings.Contains(lesson.body, `data-testid="lesson-title"`) {
		t.Errorf("GET %s = %d; want the lesson:\n%s", link, lesson.code, lesson.body)
	}
	if !strings.Contains(lesson.body, `href="/class/lessons/week-2"`) {
		t.Errorf("the class's lesson's navigation leaves the class's lessons")
	}
	if r := ada.get("/class/lessons/no-such-lesson"); r.code != http.StatusNotFound {
		t.Errorf("GET an unknown class lesson = %d; want 404", r.code)
	}

	state := func() map[string]string {
		t.Helper()
		r := ada.get("/class/api/yours", "Accept", "application/json")
		if r.code != http.StatusOK || r.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("GET /class/api/yours = %d (Cache-Control %q); want 200, no-store: %s", r.code, r.header.Get("Cache-Control"), r.body)
		}
		var m map[string]string
		if err := json.Unmarshal([]byte(r.body), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := state(); m["state"] != "building" || m["wasm"] != "" {
		t.Errorf("while building: %v; want building and no URL", m)
	}
	// A lesson asks for its week's build; a week the course does not
	// have is refused.
	if r := ada.get("/class/api/yours?week=3", "Accept", "application/json"); r.code != http.StatusOK {
		t.Errorf("GET /class/api/yours?week=3 = %d; want 200: %s", r.code, r.body)
	}
	for _, bad := range []string{"0", "9", "three", "-1"} {
		if r := ada.get("/class/api/yours?week="+bad, "Accept", "application/json"); r.code != http.StatusBadRequest || !strings.Contains(r.body, "no week") {
			t.Errorf("GET /class/api/yours?week=%s = %d %q; want 400 saying there is no such week", bad, r.code, r.body)
		}
	}
	fb.mu.Lock()
	if !slices.Equal(fb.weeks, []int{0, 3}) {
		t.Errorf("builds asked for weeks %v; want 0 (every week's, no week given), then 3", fb.weeks)
	}
	fb.mu.Unlock()
	fb.mu.Lock()
	fb.state[u.ID] = yours.Status{State: yours.Ready, Key: key}
	fb.mu.Unlock()
	m := state()
	if m["state"] != "ready" || m["wasm"] != "/class/yours/"+key+".wasm" {
		t.Fatalf("once built: %v; want ready with the build's URL", m)
	}
	fb.mu.Lock()
	fb.state[u.ID] = yours.Status{State: yours.Ready, Key: key, Note: "Yours runs the stub of gcra: …\ngcra/x_js.go:1:1: bad"}
	fb.mu.Unlock()
	if m := state(); m["state"] != "ready" || m["note"] != "Yours runs the stub of gcra: …\ngcra/x_js.go:1:1: bad" {
		t.Errorf("a build with an exercise left out: %v; want ready with the note", m)
	}
	fb.mu.Lock()
	fb.state[u.ID] = yours.Status{State: yours.Failed, Key: key, Error: "tokenbucket/tokenbucket.go:3:1: undefined: x"}
	fb.mu.Unlock()
	if m := state(); m["state"] != "failed" || m["error"] != "tokenbucket/tokenbucket.go:3:1: undefined: x" || m["wasm"] != "" {
		t.Errorf("a build that failed: %v; want failed with the compiler's lines", m)
	}

	// The build, to the learner whose code it is and to instructors, cached
	// for good, gzipped when asked; another learner is told there is none.
	bob := f.browser(t)
	if r := bob.signIn(url.Values{"token": {bobToken}}); r.code != http.StatusSeeOther {
		t.Fatalf("bob signing in = %d", r.code)
	}
	if r := bob.get("/class/yours/" + key + ".wasm"); r.code != http.StatusNotFound || strings.Contains(r.body, "asm") {
		t.Errorf("bob GETs ada's build = %d %q; want 404, as for no build", r.code, r.body)
	}
	prof := f.instructor(t)
	r := prof.get("/class/yours/"+key+".wasm", "Accept-Encoding", "identity")
	if r.code != http.StatusOK || r.body != "\x00asm raw" || r.header.Get("Content-Type") != "application/wasm" ||
		!strings.Contains(r.header.Get("Cache-Control"), "immutable") || r.header.Get("Content-Encoding") != "" {
		t.Errorf("GET the build = %d %q (%v); want the WebAssembly, application/wasm, immutable", r.code, r.body, r.header)
	}
	// Transport would decode gzip itself: ask with a request of our own.
	req, _ := http.NewRequest(http.MethodGet, f.url+"/class/yours/"+key+".wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	r = ada.do(req)
	if r.code != http.StatusOK || r.body != "gzip copy" || r.header.Get("Content-Encoding") != "gzip" || r.header.Get("ETag") != `"`+key+`-gzip"` {
		t.Errorf("GET the build, gzip accepted = %d %q (Content-Encoding %q, ETag %q); want the gzip copy", r.code, r.body, r.header.Get("Content-Encoding"), r.header.Get("ETag"))
	}
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	r = ada.do(req)
	if r.code != http.StatusOK || r.body != "br copy" || r.header.Get("Content-Encoding") != "br" || r.header.Get("ETag") != `"`+key+`-br"` {
		t.Errorf("GET the build, Brotli accepted = %d %q (Content-Encoding %q, ETag %q); want the Brotli copy", r.code, r.body, r.header.Get("Content-Encoding"), r.header.Get("ETag"))
	}
	for _, bad := range []string{strings.Repeat("cd", 32) + ".wasm", key, "../lab.wasm"} {
		if r := ada.get("/class/yours/" + bad); r.code != http.StatusNotFound {
			t.Errorf("GET /class/yours/%s = %d; want 404", bad, r.code)
		}
	}
	// A learner's miss of a build's key is built here (Ensure); a name
	// that is no key (../lab) is not, nor an instructor's miss.
	if len(fb.ensured) != 1 || fb.ensured[0] != strings.Repeat("cd", 32) {
		t.Errorf("Ensure was asked for %q; want ada's one miss of a build's key, cdcd…", fb.ensured)
	}
	if r := prof.get("/class/yours/" + strings.Repeat("cd", 32) + ".wasm"); r.code != http.StatusNotFound || len(fb.ensured) != 1 {
		t.Errorf("an instructor's miss = %d, Ensure asked %d times; want 404 and no build", r.code, len(fb.ensured))
	}
	// Only learners have a build: an instructor's lesson has no state line.
	if r := prof.get("/class/api/yours", "Accept", "application/json"); r.code != http.StatusForbidden {
		t.Errorf("GET /class/api/yours as an instructor = %d; want 403", r.code)
	}
	if r := prof.get(link); r.code != http.StatusOK || strings.Contains(r.body, "data-yours-api") {
		t.Errorf("GET %s as an instructor = %d; want the lesson without the learner's build", link, r.code)
	}
}
