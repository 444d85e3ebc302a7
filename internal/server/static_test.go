package server_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"ratelab/internal/precompress"
	"ratelab/internal/server"
	"ratelab/web"
)

// fakeWasm is a compressible stand-in for lab.wasm; build tells builds apart.
func fakeWasm(build string) []byte {
	return append([]byte("\x00asm\x01\x00\x00\x00"), []byte(strings.Repeat("(func $main.step "+build+")\n", 2000))...)
}

// rawGet is a GET whose body is kept as served, not decoded.
func rawGet(t *testing.T, h http.Handler, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// writeBuild writes lab.wasm into dir and, if copies, its .br and .gz as
// `make wasm` does.
func writeBuild(t *testing.T, dir string, wasm []byte, copies bool) {
	t.Helper()
	path := filepath.Join(dir, "lab.wasm")
	if err := os.WriteFile(path, wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	if copies {
		if _, err := precompress.Write(path); err != nil {
			t.Fatal(err)
		}
	}
}

// A browser that accepts br gets lab.wasm.br as written at build time,
// one that accepts gzip only gets lab.wasm.gz, one that accepts neither
// the file; each as application/wasm, with Vary, its own ETag and length.
func TestStaticServesPrecompressedCopies(t *testing.T) {
	dir := t.TempDir()
	wasm := fakeWasm("1")
	writeBuild(t, dir, wasm, true)
	br, _ := os.ReadFile(filepath.Join(dir, "lab.wasm.br"))
	gz, _ := os.ReadFile(filepath.Join(dir, "lab.wasm.gz"))
	h := server.New(server.Config{Static: web.Static(dir)})

	for _, c := range []struct {
		accept, encoding string
		body             []byte
	}{
		{"gzip, deflate, br, zstd", "br", br}, // Chromium's
		{"br", "br", br},
		{"BR;q=0.5", "br", br},
		{"gzip, deflate", "gzip", gz},
		{"br;q=0, gzip", "gzip", gz},
		{"", "", wasm},
		{"identity", "", wasm},
		{"br;q=0", "", wasm},
	} {
		rec := rawGet(t, h, "/static/lab.wasm", "Accept-Encoding", c.accept)
		hdr := rec.Header()
		if rec.Code != http.StatusOK || hdr.Get("Content-Encoding") != c.encoding || !bytes.Equal(rec.Body.Bytes(), c.body) {
			t.Errorf("Accept-Encoding %q: %d, Content-Encoding %q, %d bytes; want 200, %q, %d bytes",
				c.accept, rec.Code, hdr.Get("Content-Encoding"), rec.Body.Len(), c.encoding, len(c.body))
		}
		if got := hdr.Get("Content-Type"); got != "application/wasm" {
			t.Errorf("Accept-Encoding %q: Content-Type = %q, want application/wasm", c.accept, got)
		}
		if got := hdr.Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary = %q, want Accept-Encoding", c.accept, got)
		}
		if got := hdr.Get("Content-Length"); got != strconv.Itoa(len(c.body)) {
			t.Errorf("Accept-Encoding %q: Content-Length = %q, want %d", c.accept, got, len(c.body))
		}
		if got := hdr.Get("Cache-Control"); got != "no-cache" {
			t.Errorf("Accept-Encoding %q: Cache-Control = %q, want no-cache", c.accept, got)
		}
		etag := hdr.Get("ETag")
		if suffix := map[string]string{"br": `-br"`, "gzip": `-gz"`}[c.encoding]; !strings.HasSuffix(etag, suffix) || etag == "" {
			t.Errorf("Accept-Encoding %q: ETag = %q, want one ending %q", c.accept, etag, suffix)
		}
		if again := rawGet(t, h, "/static/lab.wasm", "Accept-Encoding", c.accept, "If-None-Match", etag); again.Code != http.StatusNotModified {
			t.Errorf("Accept-Encoding %q: GET with its ETag = %d, want 304", c.accept, again.Code)
		}
	}
	if len(br) >= len(gz) {
		t.Errorf("lab.wasm.br is %d bytes, lab.wasm.gz %d: want Brotli smaller", len(br), len(gz))
	}
	// The ETags of the three variants differ: a cache never mixes them.
	tags := map[string]bool{}
	for _, ae := range []string{"br", "gzip", ""} {
		tags[rawGet(t, h, "/static/lab.wasm", "Accept-Encoding", ae).Header().Get("ETag")] = true
	}
	if len(tags) != 3 {
		t.Errorf("the br, gzip and raw variants share ETags: %v", tags)
	}
}

// Copies left by an older build are never served, whatever their times
// say: lab.wasm rebuilt without its copies (go build alone), copies newer
// than the file, embedded files (no times at all), and the live loop's
// rebuild in a folder served over the one that has copies.
func TestStaticNeverServesStaleCopies(t *testing.T) {
	t.Run("rebuilt without copies", func(t *testing.T) {
		dir := t.TempDir()
		writeBuild(t, dir, fakeWasm("old"), true)
		h := server.New(server.Config{Static: web.Static(dir)})
		if r := get(t, h, "/static/lab.wasm", "Accept-Encoding", "br"); r.Header.Get("Content-Encoding") != "br" {
			t.Fatalf("before the rebuild: Content-Encoding %q, want br", r.Header.Get("Content-Encoding"))
		}
		rebuilt := fakeWasm("new")
		writeBuild(t, dir, rebuilt, false)
		// The copies look newer than the file: times do not decide.
		later := time.Now().Add(time.Hour)
		for _, ext := range []string{".br", ".gz"} {
			if err := os.Chtimes(filepath.Join(dir, "lab.wasm"+ext), later, later); err != nil {
				t.Fatal(err)
			}
		}
		checkServes(t, h, rebuilt)
	})
	t.Run("embedded", func(t *testing.T) {
		old := fakeWasm("old")
		br, _ := precompress.Compress("br", old)
		gz, _ := precompress.Compress("gzip", old)
		rebuilt := fakeWasm("new")
		fsys := fstest.MapFS{"lab.wasm": {Data: rebuilt}, "lab.wasm.br": {Data: br}, "lab.wasm.gz": {Data: gz}}
		checkServes(t, server.New(server.Config{Static: fsys}), rebuilt)
	})
	t.Run("live rebuild over the built lab", func(t *testing.T) {
		built, live := t.TempDir(), t.TempDir()
		writeBuild(t, built, fakeWasm("make wasm"), true)
		yours := fakeWasm("after a save")
		writeBuild(t, live, yours, false)
		checkServes(t, server.New(server.Config{Static: web.Prefer(live, web.Static(built))}), yours)
	})
}

// checkServes checks that every Accept-Encoding gets wasm, and none of
// them as Brotli (there is no good copy; gzip is made on the fly).
func checkServes(t *testing.T, h http.Handler, wasm []byte) {
	t.Helper()
	for _, ae := range []string{"gzip, deflate, br, zstd", "br", "gzip", ""} {
		r := get(t, h, "/static/lab.wasm", "Accept-Encoding", ae)
		want := map[string]string{"gzip, deflate, br, zstd": "gzip", "gzip": "gzip"}[ae]
		if got := r.Header.Get("Content-Encoding"); got != want || r.body != string(wasm) {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, %d bytes (the current build: %v); want %q, the current build",
				ae, got, len(r.body), r.body == string(wasm), want)
		}
	}
}

// Without copies (a learner who ran go build only), gzip is made on the
// fly as before; copies written while the server runs are served from the
// next request on.
func TestStaticFallsBackWithoutCopies(t *testing.T) {
	dir := t.TempDir()
	wasm := fakeWasm("1")
	writeBuild(t, dir, wasm, false)
	h := server.New(server.Config{Static: web.Static(dir)})
	checkServes(t, h, wasm)
	if err := os.WriteFile(filepath.Join(dir, "lab.wasm.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkServes(t, h, wasm) // a broken copy is not served either

	writeBuild(t, dir, wasm, true)
	br, _ := os.ReadFile(filepath.Join(dir, "lab.wasm.br"))
	if rec := rawGet(t, h, "/static/lab.wasm", "Accept-Encoding", "br"); rec.Header().Get("Content-Encoding") != "br" || !bytes.Equal(rec.Body.Bytes(), br) {
		t.Errorf("after make wasm wrote the copies: Content-Encoding %q, %d bytes; want br, lab.wasm.br's %d",
			rec.Header().Get("Content-Encoding"), rec.Body.Len(), len(br))
	}
}
