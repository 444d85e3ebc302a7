package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/brotli"

	"ratelab/grader/report"
	"ratelab/internal/server"
	"ratelab/internal/store"
	"ratelab/internal/weekbuild"
	"ratelab/web"
)

// fakeReports serves fixed results, or fails with err.
type fakeReports struct {
	results map[string]store.Result
	err     error
}

func (f fakeReports) LatestResults(ctx context.Context, target string) (map[string]store.Result, error) {
	if f.err != nil {
		return nil, f.err
	}
	return f.results, nil
}

func (f fakeReports) LatestResult(ctx context.Context, target, id string) (store.Result, error) {
	if f.err != nil {
		return store.Result{}, f.err
	}
	r, ok := f.results[id]
	if !ok {
		return store.Result{}, store.ErrNotFound
	}
	return r, nil
}

var saved = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

func reports() fakeReports {
	return fakeReports{results: map[string]store.Result{
		"tokenbucket": {ReportID: 1, SavedAt: saved, Target: "exercises", Seed: 1, Exercise: report.Exercise{
			ID: "tokenbucket", Status: report.Failed, Score: 20, MaxScore: 35,
			Checks: []report.Check{{ID: "tokenbucket/overflow", Title: "No overflow", Status: report.Failed, MaxScore: 5,
				Counterexample: &report.Counterexample{Setup: "New(capacity=1, ratePerSec=1, nowNs=0)",
					Steps: []report.Step{{Call: "Available(nowNs=18446744073709551615)", Got: "0", Want: "1"}}}}},
		}},
	}}
}

type response struct {
	*http.Response
	body string
}

func get(t *testing.T, h http.Handler, path string, header ...string) response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	var r io.Reader = res.Body
	switch res.Header.Get("Content-Encoding") {
	case "gzip":
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatalf("GET %s: bad gzip body: %v", path, err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(res.Body)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("GET %s: reading body: %v", path, err)
	}
	return response{res, string(b)}
}

func doc(t *testing.T, r response) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func testID(d *goquery.Document, id string) string {
	return strings.Join(strings.Fields(d.Find(`[data-testid="`+id+`"]`).Text()), " ")
}

// committedStatic is the embedded assets as committed: without the files
// `make wasm` leaves in web/static (embedded too when built before the
// test), so that tests of the "not built" state hold either way.
func committedStatic() fs.FS {
	hidden := map[string]bool{"lab.wasm": true, "wasm_exec.js": true}
	for _, week := range weekbuild.Weeks() {
		hidden[weekbuild.Name(week)], hidden[weekbuild.YoursName(week)] = true, true
	}
	return hideFiles{web.Static(""), hidden}
}

type hideFiles struct {
	fs.FS
	hidden map[string]bool
}

func (h hideFiles) Open(name string) (fs.File, error) {
	if h.hidden[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return h.FS.Open(name)
}

func TestPages(t *testing.T) {
	h := server.New(server.Config{Reports: reports(), Static: committedStatic()})
	cases := []struct {
		path, testID, want string
	}{
		{"/", "grade-tokenbucket", "failed · 20 / 35"},
		{"/", "grade-gcra", "not graded yet"},
		{"/lessons/week-1", "lesson-title", "Token buckets and GCRA"},
		{"/lessons/week-2", "viz-edge-attack", "visualization not built: run make run"},
		{"/exercises/tokenbucket", "check-tokenbucket/overflow", "Available(nowNs=18446744073709551615)"},
		{"/exercises/gcra", "no-report", "Not graded yet"},
	}
	for _, c := range cases {
		r := get(t, h, c.path)
		if r.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d, want 200", c.path, r.StatusCode)
			continue
		}
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("GET %s Content-Type = %q", c.path, ct)
		}
		if got := testID(doc(t, r), c.testID); !strings.Contains(got, c.want) {
			t.Errorf("GET %s: [data-testid=%s] = %q, want it to contain %q", c.path, c.testID, got, c.want)
		}
	}
}

func TestNotFoundRendersErrorPage(t *testing.T) {
	h := server.New(server.Config{Reports: reports(), Static: committedStatic()})
	cases := []struct{ path, message string }{
		{"/lessons/week-9", `There is no lesson called "week-9".`},
		{"/exercises/leakybucket", `There is no exercise called "leakybucket".`},
		{"/nowhere", "There is nothing at /nowhere."},
		{"/static/lab.wasm", "There is no file at /static/lab.wasm."},
		{"/static/../go.mod", "There is no file at"},
	}
	for _, c := range cases {
		r := get(t, h, c.path)
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", c.path, r.StatusCode)
		}
		d := doc(t, r)
		if got := testID(d, "error-code"); got != "404" {
			t.Errorf("GET %s: error-code = %q, want 404", c.path, got)
		}
		if got := testID(d, "error-message"); !strings.Contains(got, c.message) {
			t.Errorf("GET %s: error-message = %q, want it to contain %q", c.path, got, c.message)
		}
		if href, _ := d.Find(`[data-testid="home-link"]`).Attr("href"); href != "/" {
			t.Errorf("GET %s: no link home", c.path)
		}
	}
}

func TestStoreFailureIs500(t *testing.T) {
	var log bytes.Buffer
	h := server.New(server.Config{
		Reports: fakeReports{err: errors.New("disk on fire")},
		Static:  web.Static(""),
		Log:     slog.New(slog.NewTextHandler(&log, nil)),
	})
	for _, path := range []string{"/", "/exercises/tokenbucket"} {
		log.Reset()
		r := get(t, h, path)
		if r.StatusCode != http.StatusInternalServerError {
			t.Errorf("GET %s with a failing store = %d, want 500", path, r.StatusCode)
		}
		if strings.Contains(r.body, "disk on fire") {
			t.Errorf("GET %s leaks the internal error to the page", path)
		}
		if got := testID(doc(t, r), "error-code"); got != "500" {
			t.Errorf("GET %s: error-code = %q, want 500", path, got)
		}
		if !strings.Contains(log.String(), "disk on fire") {
			t.Errorf("GET %s: the server log lacks the error: %q", path, log.String())
		}
	}
}

func TestSecurityHeadersAndGzip(t *testing.T) {
	h := server.New(server.Config{Reports: reports(), Static: web.Static("")})
	r := get(t, h, "/lessons/week-1", "Accept-Encoding", "gzip")
	want := map[string]string{
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
		"Referrer-Policy":        "no-referrer",
		"Content-Encoding":       "gzip",
	}
	for k, v := range want {
		if got := r.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	csp := r.Header.Get("Content-Security-Policy")
	for _, part := range []string{"default-src 'self'", "'wasm-unsafe-eval'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, part) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, part)
		}
	}
	if !strings.Contains(r.body, `data-testid="lesson-title"`) {
		t.Error("gzipped lesson page does not decode to the lesson")
	}
}

func TestStaticWasm(t *testing.T) {
	wasm := append([]byte("\x00asm\x01\x00\x00\x00"), make([]byte, 8192)...)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lab.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	h := server.New(server.Config{Static: web.Static(dir)})

	gz := get(t, h, "/static/lab.wasm", "Accept-Encoding", "gzip, deflate")
	if gz.StatusCode != http.StatusOK || gz.Header.Get("Content-Type") != "application/wasm" ||
		gz.Header.Get("Content-Encoding") != "gzip" || gz.body != string(wasm) {
		t.Errorf("GET lab.wasm with gzip = %d, %q, encoding %q, %d bytes; want 200 application/wasm gzip %d bytes",
			gz.StatusCode, gz.Header.Get("Content-Type"), gz.Header.Get("Content-Encoding"), len(gz.body), len(wasm))
	}
	plain := get(t, h, "/static/lab.wasm")
	if plain.Header.Get("Content-Encoding") != "" || plain.body != string(wasm) {
		t.Errorf("GET lab.wasm without gzip: encoding %q, %d bytes", plain.Header.Get("Content-Encoding"), len(plain.body))
	}
	if !strings.Contains(plain.Header.Get("Vary"), "Accept-Encoding") {
		t.Error("lab.wasm response lacks Vary: Accept-Encoding")
	}
	again := get(t, h, "/static/lab.wasm", "Accept-Encoding", "gzip", "If-None-Match", gz.Header.Get("ETag"))
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("GET lab.wasm with its ETag = %d, want 304", again.StatusCode)
	}

	// Rebuilding lab.wasm while the server runs serves the new one.
	rebuilt := append([]byte("\x00asm\x01\x00\x00\x00"), make([]byte, 9000)...)
	if err := os.WriteFile(filepath.Join(dir, "lab.wasm"), rebuilt, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := get(t, h, "/static/lab.wasm", "Accept-Encoding", "gzip"); r.body != string(rebuilt) {
		t.Errorf("after rebuilding, lab.wasm is %d bytes, want %d", len(r.body), len(rebuilt))
	}

	// Pages link the visualization only once all its parts exist.
	fsys := fstest.MapFS{
		"lab.wasm":         {Data: wasm},
		"wasm_exec.js":     {Data: []byte("// go")},
		"viz/limiters.js":  {Data: []byte("// viz")},
		"viz/limiters.css": {Data: []byte("/* viz */")},
	}
	h = server.New(server.Config{Static: fsys})
	d := doc(t, get(t, h, "/lessons/week-2"))
	if d.Find(`script[src="/static/viz/limiters.js"]`).Length() != 1 || d.Find(`[data-testid="viz-missing"]`).Length() != 0 {
		t.Error("with every visualization asset present, the lesson does not load the visualization")
	}
	if r := get(t, h, "/static/viz/limiters.js"); r.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || r.body != "// viz" {
		t.Errorf("GET viz/limiters.js = %q %q", r.Header.Get("Content-Type"), r.body)
	}
}

func TestTrailingSlashRedirects(t *testing.T) {
	h := server.New(server.Config{Static: web.Static("")})
	r := get(t, h, "/lessons/week-1/")
	if r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/lessons/week-1" {
		t.Errorf("GET /lessons/week-1/ = %d to %q, want 301 to /lessons/week-1", r.StatusCode, r.Header.Get("Location"))
	}
}

func TestHeadAndOtherMethods(t *testing.T) {
	h := server.New(server.Config{Static: web.Static("")})
	for _, c := range []struct {
		method string
		want   int
	}{{http.MethodHead, http.StatusOK}, {http.MethodPost, http.StatusMethodNotAllowed}} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, "/lessons/week-2", nil))
		if rec.Code != c.want {
			t.Errorf("%s /lessons/week-2 = %d, want %d", c.method, rec.Code, c.want)
		}
	}
}
