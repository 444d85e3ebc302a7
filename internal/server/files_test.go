package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ratelab/internal/server"
)

// filesRoot makes a checkout with exercises/gcra/ holding a stub, a test
// file and a README, and the sibling solutions/ that must stay untouched.
func filesRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("exercises/gcra/gcra.go", "package gcra\n")
	write("exercises/gcra/doc.go", "// Package gcra is an exercise.\npackage gcra\n")
	write("exercises/gcra/gcra_test.go", "package gcra\n// the learner's own test\n")
	write("exercises/gcra/README.md", "notes\n")
	write("solutions/gcra/gcra.go", "package gcra // reference\n")
	write("exercises/x.go", "package exercises\n")
	return root
}

type filesReply struct {
	Files    map[string]string `json:"files"`
	Version  string            `json:"version"`
	Error    string            `json:"error"`
	Problems []string          `json:"problems"`
}

// filesClient talks to a lab serving the files API over root.
type filesClient struct {
	t   *testing.T
	srv *httptest.Server
}

func newFilesClient(t *testing.T, root string) *filesClient {
	srv := httptest.NewServer(server.New(server.Config{
		Reports: reports(), Static: committedStatic(), Files: root,
		Hosts: &server.Hosts{},
	}))
	t.Cleanup(srv.Close)
	return &filesClient{t: t, srv: srv}
}

// do sends a request with body (nil: none) and headers, and decodes the
// JSON answer.
func (c *filesClient) do(method, path string, body any, headers map[string]string) (int, filesReply) {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.srv.URL+path, r)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out filesReply
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &out); err != nil {
			c.t.Fatalf("%s %s: %v in %q", method, path, err, raw)
		}
	}
	return resp.StatusCode, out
}

func (c *filesClient) get() filesReply {
	c.t.Helper()
	code, r := c.do(http.MethodGet, "/api/exercises/gcra/files", nil, nil)
	if code != http.StatusOK {
		c.t.Fatalf("GET files = %d %+v; want 200", code, r)
	}
	return r
}

func (c *filesClient) put(files map[string]string, base string, headers map[string]string) (int, filesReply) {
	c.t.Helper()
	return c.do(http.MethodPut, "/api/exercises/gcra/files", map[string]any{"files": files, "base": base}, headers)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The editor reads the exercise's .go files, never its tests or other
// files, and a save writes them into exercises/<name>/ with a new version.
func TestFilesReadAndSave(t *testing.T) {
	root := filesRoot(t)
	c := newFilesClient(t, root)
	r := c.get()
	if names := keys(r.Files); !slices.Equal(names, []string{"doc.go", "gcra.go"}) {
		t.Fatalf("GET files = %v; want doc.go and gcra.go only (no test file, no README)", names)
	}
	if r.Version == "" {
		t.Fatal("GET files: no version")
	}
	code, saved := c.put(map[string]string{"gcra.go": "package gcra\n\nvar x = 1\n", "extra.go": "package gcra\n"}, r.Version, nil)
	if code != http.StatusOK || saved.Version == "" || saved.Version == r.Version {
		t.Fatalf("PUT = %d %+v; want 200 with a new version", code, saved)
	}
	dir := filepath.Join(root, "exercises", "gcra")
	if got := readFile(t, filepath.Join(dir, "gcra.go")); got != "package gcra\n\nvar x = 1\n" {
		t.Errorf("gcra.go = %q after the save", got)
	}
	if got := readFile(t, filepath.Join(dir, "extra.go")); got != "package gcra\n" {
		t.Errorf("extra.go = %q after the save", got)
	}
	// doc.go was not in the save: it stays (a save never deletes).
	if got := readFile(t, filepath.Join(dir, "doc.go")); !strings.Contains(got, "Package gcra") {
		t.Errorf("doc.go = %q; a save must not delete or change files it does not hold", got)
	}
	if after := c.get(); after.Version != saved.Version || len(after.Files) != 3 {
		t.Errorf("GET after the save = version %s, %d files; want the PUT's version %s and 3 files", after.Version, len(after.Files), saved.Version)
	}
	// No temporary file is left beside them.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s left in exercises/gcra after a save", e.Name())
		}
	}
}

// A save based on a version the disk no longer holds (the learner saved
// from their own editor meanwhile) is refused with 409 and the disk's
// files, and writes nothing.
func TestFilesStaleBaseConflicts(t *testing.T) {
	root := filesRoot(t)
	c := newFilesClient(t, root)
	r := c.get()
	p := filepath.Join(root, "exercises", "gcra", "gcra.go")
	if err := os.WriteFile(p, []byte("package gcra // from vim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := c.put(map[string]string{"gcra.go": "package gcra // from the browser\n"}, r.Version, nil)
	if code != http.StatusConflict {
		t.Fatalf("PUT on a stale base = %d %+v; want 409", code, out)
	}
	if out.Files["gcra.go"] != "package gcra // from vim\n" || out.Version == "" || out.Version == r.Version {
		t.Errorf("409's body = %+v; want the disk's files and their new version", out)
	}
	if got := readFile(t, p); got != "package gcra // from vim\n" {
		t.Errorf("gcra.go = %q after a refused save; want the disk's text kept", got)
	}
	// Saving again on the disk's version ("Keep mine") goes through.
	if code, _ := c.put(map[string]string{"gcra.go": "package gcra // mine\n"}, out.Version, nil); code != http.StatusOK {
		t.Errorf("PUT on the disk's version = %d; want 200", code)
	}
}

// Names that would leave exercises/gcra/, test files, other kinds of files
// and sizes beyond a submission's are refused with 422 and the problems,
// and nothing is written anywhere.
func TestFilesRefuseBadFiles(t *testing.T) {
	root := filesRoot(t)
	c := newFilesClient(t, root)
	base := c.get().Version
	big := strings.Repeat("x", 64<<10+1)
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"parent", map[string]string{"../x.go": "package exercises\n"}, "folder"},
		{"sibling", map[string]string{"../../solutions/gcra/gcra.go": "package gcra\n"}, "folder"},
		{"absolute", map[string]string{"/tmp/evil.go": "package gcra\n"}, "folder"},
		{"backslash", map[string]string{`..\x.go`: "package gcra\n"}, "folder"},
		{"dotdot", map[string]string{"a..go": "package gcra\n"}, ".."},
		{"test file", map[string]string{"gcra_test.go": "package gcra\n"}, "test files"},
		{"not go", map[string]string{"notes.txt": "hi\n"}, ".go files"},
		{"hidden", map[string]string{".gcra.go": "package gcra\n"}, ".go files"},
		{"empty name", map[string]string{"": "package gcra\n"}, ".go files"},
		{"too big", map[string]string{"gcra.go": big}, "over the limit"},
		{"no files", map[string]string{}, "no files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := c.put(tc.files, base, nil)
			if code != http.StatusUnprocessableEntity || !strings.Contains(strings.Join(out.Problems, " "), tc.want) {
				t.Errorf("PUT %v = %d %+v; want 422 with a problem saying %q", keys(tc.files), code, out, tc.want)
			}
		})
	}
	if got := readFile(t, filepath.Join(root, "exercises", "x.go")); got != "package exercises\n" {
		t.Errorf("exercises/x.go = %q: a refused save wrote outside exercises/gcra", got)
	}
	if got := readFile(t, filepath.Join(root, "solutions", "gcra", "gcra.go")); got != "package gcra // reference\n" {
		t.Errorf("solutions/gcra/gcra.go = %q: a refused save wrote outside exercises/gcra", got)
	}
	if _, err := os.Stat(filepath.Join(root, "exercises", "gcra", "gcra_test.go")); err != nil {
		t.Error(err)
	}
	if v := c.get().Version; v != base {
		t.Errorf("version = %s after refused saves; want %s (nothing written)", v, base)
	}
	// An exercise that is not the course's, or a path that tries to leave
	// exercises/ through the exercise's name, is not found.
	for _, path := range []string{"/api/exercises/nope/files", "/api/exercises/..%2Fsolutions%2Fgcra/files", "/api/exercises/../files"} {
		if code, _ := c.do(http.MethodGet, path, nil, nil); code != http.StatusNotFound {
			t.Errorf("GET %s = %d; want 404", path, code)
		}
		if code, _ := c.do(http.MethodPut, path, map[string]any{"files": map[string]string{"gcra.go": "package gcra\n"}}, nil); code != http.StatusNotFound {
			t.Errorf("PUT %s = %d; want 404", path, code)
		}
	}
	// A body that is not JSON is a 415 or a 400, never a write.
	req, _ := http.NewRequest(http.MethodPut, c.srv.URL+"/api/exercises/gcra/files", strings.NewReader("files=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("PUT as a form = %d; want 415", resp.StatusCode)
	}
}

// A page of another site cannot write the learner's files through their
// browser: a PUT the browser marks as cross-site is refused; the lab's own
// pages and clients that are not browsers are not.
func TestFilesRefuseOtherOrigins(t *testing.T) {
	root := filesRoot(t)
	c := newFilesClient(t, root)
	host := strings.TrimPrefix(c.srv.URL, "http://")
	for _, h := range []map[string]string{
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"},
		{"Origin": "http://attacker.example"},
		{"Origin": "null"},
		{"Origin": "http://" + host + ".attacker.example"},
	} {
		code, out := c.put(map[string]string{"gcra.go": "package gcra // evil\n"}, c.get().Version, h)
		if code != http.StatusForbidden || out.Error == "" {
			t.Errorf("PUT with %v = %d %+v; want 403 with a message", h, code, out)
		}
	}
	if got := readFile(t, filepath.Join(root, "exercises", "gcra", "gcra.go")); got != "package gcra\n" {
		t.Fatalf("gcra.go = %q: a cross-site PUT wrote it", got)
	}
	for _, h := range []map[string]string{
		{"Sec-Fetch-Site": "same-origin", "Origin": "http://" + host},
		nil,
	} {
		if code, out := c.put(map[string]string{"gcra.go": "package gcra\n// ok\n"}, c.get().Version, h); code != http.StatusOK {
			t.Errorf("PUT with %v = %d %+v; want 200", h, code, out)
		}
	}
}

// Without Files (class mode, a server without the live loop) there is no
// files API and the exercise page has no editor.
func TestFilesOnlyWhenConfigured(t *testing.T) {
	srv := httptest.NewServer(server.New(server.Config{Reports: reports(), Static: committedStatic()}))
	defer srv.Close()
	for _, m := range []string{http.MethodGet, http.MethodPut} {
		req, _ := http.NewRequest(m, srv.URL+"/api/exercises/gcra/files", strings.NewReader(`{"files":{}}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s files without Files = %d; want 404 or 405", m, resp.StatusCode)
		}
	}
	page := func(srv *httptest.Server) string {
		resp, err := http.Get(srv.URL + "/exercises/gcra")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if body := page(srv); strings.Contains(body, "data-editor") {
		t.Error("the exercise page has an editor without the files API")
	}
	with := httptest.NewServer(server.New(server.Config{Reports: reports(), Static: committedStatic(), Files: filesRoot(t)}))
	defer with.Close()
	if body := page(with); !strings.Contains(body, `data-editor="gcra"`) || !strings.Contains(body, `data-editor-mode="local"`) {
		t.Error("the exercise page has no local editor with the files API")
	}
}

func keys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
