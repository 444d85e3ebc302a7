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
