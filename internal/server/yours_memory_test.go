package server_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ratelab/grader/build"
	"ratelab/grader/buildcache"
	"ratelab/internal/server"
	"ratelab/internal/store"
	"ratelab/internal/yours"
)

// slowReaders is how many learners hold a download of the largest build
// a learner can make the server send.
const slowReaders = 100

// heapPerReader bounds what one slow reader of a build may cost the
// server's heap: its connection's buffers, the request, the copy's buffer
// (32 KiB), a few hundred bytes of state. A build read into memory per
// request costs its whole size, 16 MiB, and fails the bound with the
// second reader.
const heapPerReader = 256 << 10

// TestSlowReadersOfTheLargestBuild: 100 learners, each holding a download
// of a build of the largest size allowed (yours.MaxWasm) and reading none
// of it past the first bytes, cost the server's heap at most
// heapPerReader each: builds are served from their files, never read
// into memory per request.
func TestSlowReadersOfTheLargestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("holds 100 connections on a build of 16 MiB")
	}
	cache, err := buildcache.Open(t.TempDir(), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	// Every learner has submitted nothing: they share the stubs' build,
	// put in the cache by hand at the largest size a build may be.
	lb := &build.Lab{Root: "../.."}
	key, err := lb.Key()
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(t.TempDir(), "lab.wasm")
	out, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	chunk := []byte(strings.Repeat("\x00asm", 16<<10)) // 64 KiB
	for range yours.MaxWasm / len(chunk) {
		out.Write(chunk)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cache.Put(key, big); err != nil {
		t.Fatal(err)
	}
	builds := yours.New(yours.Config{Root: "../..", Cache: cache, TempDir: t.TempDir(), Log: slog.New(slog.DiscardHandler),
		Sources: func(context.Context, int64) (map[string]map[string][]byte, error) { return nil, nil }})
	t.Cleanup(builds.Stop)
	f := newClassWith(t, fixtureOptions{class: server.Class{Yours: builds}})
	tokens := make([]string, slowReaders)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("rl_reader-%03d", i)
		if _, err := f.st.AddLearner(t.Context(), fmt.Sprintf("reader%03d", i), store.Hash(tokens[i])); err != nil {
			t.Fatal(err)
		}
	}
	u, _ := url.Parse(f.url)
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()
	for i, tok := range tokens {
		if code := slowRead(t, u.Host, key.String(), tok); code != http.StatusOK {
			t.Fatalf("reader %d: %d; want 200 and the build", i, code)
		}
		if grown := int64(heap()) - int64(base); grown > int64(i+1)*heapPerReader {
			t.Fatalf("with %d slow readers of a %d MiB build, the heap grew by %.1f MiB; want at most %d KiB a reader (the build served from its file)",
				i+1, yours.MaxWasm>>20, float64(grown)/(1<<20), heapPerReader>>10)
		}
	}
	// A learner downloads at most two builds at once: her third is
	// refused at once, with Retry-After.
	if code := slowRead(t, u.Host, key.String(), tokens[0]); code != http.StatusOK {
		t.Errorf("a learner's second download at once: %d; want 200", code)
	}
	if code := slowRead(t, u.Host, key.String(), tokens[0]); code != http.StatusTooManyRequests {
		t.Errorf("a learner's third download at once: %d; want 429", code)
	}
	t.Logf("%d slow readers of a %d MiB build: the heap grew by %.1f MiB", slowReaders, yours.MaxWasm>>20, float64(int64(heap())-int64(base))/(1<<20))
}

// slowRead asks for the build key with a learner's token on a connection
// of its own and, if it is served, reads its first bytes and no more:
// the server is then writing it, waiting for this reader. It returns the
// status; the connection is closed when the test ends.
func slowRead(t *testing.T, host, key, token string) int {
	t.Helper()
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// A small window: the kernel holds little of the build for a reader
	// that does not read.
	c.(*net.TCPConn).SetReadBuffer(4 << 10)
	fmt.Fprintf(c, "GET /class/yours/%s.wasm HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", key, host, token)
	resp, err := http.ReadResponse(bufio.NewReaderSize(c, 4<<10), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode
	}
	if resp.ContentLength != yours.MaxWasm {
		t.Fatalf("the build is %d bytes; want the %d put in the cache", resp.ContentLength, yours.MaxWasm)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 4<<10)); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode
}
