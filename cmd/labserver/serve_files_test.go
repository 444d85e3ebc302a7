package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ratelab/internal/weekbuild"
)

// The editor's files API is served where the live loop grades what it
// writes (single-learner mode, watching a checkout), and nowhere else: not
// by a server that does not watch exercises/.
func TestServeFilesAPIOnlyWithTheLiveLoop(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "exercises", "gcra"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "exercises", "gcra", "gcra.go"), []byte("package gcra\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	get := func(liveRoot string) (int, string) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ready := make(chan net.Addr, 1)
		done := make(chan error, 1)
		go func() {
			o := serveOptions{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "lab.db"), liveRoot: liveRoot}
			done <- serve(ctx, o, io.Discard, ready)
		}()
		var addr net.Addr
		select {
		case addr = <-ready:
		case err := <-done:
			t.Fatalf("serve returned before serving: %v", err)
		}
		resp, err := http.Get("http://" + addr.String() + "/api/exercises/gcra/files")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve after cancel = %v", err)
		}
		return resp.StatusCode, string(body)
	}
	if code, body := get(root); code != http.StatusOK || !strings.Contains(body, `"gcra.go":"package gcra\n"`) {
		t.Errorf("GET files with the live loop = %d %s; want 200 with gcra.go", code, body)
	}
	if code, _ := get(""); code != http.StatusNotFound {
		t.Errorf("GET files without the live loop = %d; want 404", code)
	}
}

// The single-learner lab serves web/static from the checkout, and writes
// the WebAssembly's compressed copies there once it listens (make run
// writes only the gzip ones): a browser that accepts Brotli gets the
// Brotli copy of lab.wasm and of a week's builds as soon as it is written,
// without the server being rebuilt.
func TestServeWritesLabWasmsBrotliCopyInTheBackground(t *testing.T) {
	root := t.TempDir()
	static := filepath.Join(root, "web", "static")
	for _, dir := range []string{filepath.Join(root, "exercises"), static} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wasm := []byte(strings.Repeat("(func $tryAcquire (param i64 i64) (result i32))\n", 20000))
	names := []string{"lab.wasm", weekbuild.Name(1), weekbuild.YoursName(1)}
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(static, name), wasm, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		o := serveOptions{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "lab.db"), liveRoot: root}
		done <- serve(ctx, o, io.Discard, ready)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve after cancel = %v", err)
		}
	}()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve returned before serving: %v", err)
	}
	// Wait for the copies: the deadline is only a safety net.
	deadline := time.Now().Add(2 * time.Minute)
	for _, name := range names {
		for {
			req, _ := http.NewRequest("GET", "http://"+addr.String()+"/static/"+name, nil)
			req.Header.Set("Accept-Encoding", "br, gzip")
			resp, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			enc := resp.Header.Get("Content-Encoding")
			if enc != "br" && enc != "gzip" || len(body) >= len(wasm) {
				t.Fatalf("GET %s: %s-encoded, %d bytes of %d; want it compressed", name, enc, len(body), len(wasm))
			}
			if enc == "br" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the Brotli copy of %s was never served", name)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if _, err := os.Stat(filepath.Join(static, name+".br")); err != nil {
			t.Errorf("no %s.br beside %s: %v", name, name, err)
		}
	}
}
