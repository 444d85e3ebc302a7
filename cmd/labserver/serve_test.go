package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ratelab/grader/report"
	"ratelab/internal/store"
)

func TestServeServesUntilCancelled(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "nested", ".ratelab", "lab.db")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	var log strings.Builder
	go func() {
		done <- serve(ctx, serveOptions{addr: "127.0.0.1:0", db: db}, &log, ready)
	}()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve returned before serving: %v", err)
	}
	resp, err := http.Get("http://" + addr.String() + "/lessons/week-1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `data-testid="lesson-title"`) {
		t.Errorf("GET /lessons/week-1 = %d, lesson-title present: %v", resp.StatusCode, strings.Contains(string(body), "lesson-title"))
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve after cancel = %v, want nil", err)
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("database not created with its folder: %v", err)
	}
	if !strings.Contains(log.String(), "http://"+addr.String()) {
		t.Errorf("serve did not print its address: %q", log.String())
	}
}

func TestServeRejectsBadStaticDir(t *testing.T) {
	o := serveOptions{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "lab.db"), staticDir: filepath.Join(t.TempDir(), "missing")}
	err := serve(context.Background(), o, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "--static-dir") {
		t.Errorf("serve with a missing --static-dir = %v, want an error naming the flag", err)
	}
}

func TestRunServeFlags(t *testing.T) {
	var ee exitError
	if err := runServe([]string{"--no-such-flag"}); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("runServe(--no-such-flag) = %v, want exit status 2", err)
	}
	if err := runServe([]string{"extra"}); err == nil {
		t.Error("runServe(extra) = nil, want an error about the argument")
	}
	if err := runServe([]string{"--help"}); err != nil {
		t.Errorf("runServe(--help) = %v, want nil", err)
	}
}

func TestStoreReportSavesWhereServeReads(t *testing.T) {
	root := t.TempDir()
	r := &report.Report{Schema: report.Schema, Target: "exercises", Seed: 3, Exercises: []report.Exercise{
		{ID: "gcra", Week: 1, Title: "GCRA", Status: report.Failed, Score: 10, MaxScore: 30},
	}}
	r.Total()
	storeReport(root, r)

	st, err := store.Open(context.Background(), filepath.Join(root, defaultDBPath), wallClock{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.LatestResult(context.Background(), "exercises", "gcra")
	if err != nil || got.Exercise.Score != 10 || got.Seed != 3 {
		t.Errorf("after storeReport, LatestResult(gcra) = %+v, %v; want score 10, seed 3", got, err)
	}
}

// The address serve prints is one a browser opens, as the README writes
// it: localhost stays localhost, not the 127.0.0.1 it resolves to.
func TestShownAddr(t *testing.T) {
	for _, c := range []struct{ flag, listened, want string }{
		{"localhost:8080", "127.0.0.1:8080", "localhost:8080"},
		{"localhost:0", "127.0.0.1:41234", "localhost:41234"},
		{"127.0.0.1:0", "127.0.0.1:41234", "127.0.0.1:41234"},
		{":8080", "[::]:8080", "localhost:8080"},
		{"0.0.0.0:9090", "0.0.0.0:9090", "localhost:9090"},
		{"lab.example.edu:443", "10.0.0.5:443", "lab.example.edu:443"},
		{"[::1]:8080", "[::1]:8080", "[::1]:8080"},
	} {
		ap, err := netip.ParseAddrPort(c.listened)
		if err != nil {
			t.Fatal(err)
		}
		ln := net.TCPAddrFromAddrPort(ap)
		if got := shownAddr(c.flag, ln); got != c.want {
			t.Errorf("shownAddr(%q, %s) = %q, want %q", c.flag, c.listened, got, c.want)
		}
	}
}

// serve -h names each class-mode flag's value by its type: flag takes a usage's
// first `quoted` words as the value's name, which once showed
// "-workers labserver worker".
func TestServeFlagsShowTheirValueTypes(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var o classOptions
	o.flags(fs)
	fs.VisitAll(func(f *flag.Flag) {
		if name, _ := flag.UnquoteUsage(f); strings.Contains(name, " ") {
			t.Errorf("-%s shows its value as %q in -h", f.Name, name)
		}
	})
}

// --allow-host names are kept lower case, repeatable; anything but a bare
// name is refused with what to give instead.
func TestServeAllowHostFlag(t *testing.T) {
	var o serveOptions
	fs := serveFlags(&o)
	fs.SetOutput(io.Discard)
	if err := fs.Parse([]string{"--allow-host", "Lab.Example", "--allow-host", "laptop.local"}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"lab.example", "laptop.local"}; !slices.Equal(o.allowHosts, want) {
		t.Errorf("--allow-host twice = %q; want %q", o.allowHosts, want)
	}
	for _, bad := range []string{"http://lab.example", "lab.example:8080", ""} {
		if err := serveFlags(&serveOptions{}).Parse([]string{"--allow-host", bad}); err == nil || !strings.Contains(err.Error(), "host name") {
			t.Errorf("--allow-host %q = %v; want an error asking for a host name", bad, err)
		}
	}
}

// The single-learner lab answers to localhost and the names it is given,
// and refuses others (DNS rebinding) with 421; --addr's own host counts as
// given.
func TestServeAnswersItsOwnNamesOnly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		o := serveOptions{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "lab.db"), allowHosts: []string{"laptop.local"}}
		done <- serve(ctx, o, io.Discard, ready)
	}()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve returned before serving: %v", err)
	}
	_, port, _ := net.SplitHostPort(addr.String())
	for host, want := range map[string]int{
		"attacker.example:" + port: http.StatusMisdirectedRequest,
		"localhost:" + port:        http.StatusOK,
		"laptop.local:" + port:     http.StatusOK,
		addr.String():              http.StatusOK,
	} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr.String()+"/", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET / with Host %s = %d; want %d", host, resp.StatusCode, want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve after cancel = %v", err)
	}
}

// --trusted-proxy takes a CIDR or a bare address (one host), repeatable.
func TestServeTrustedProxyFlag(t *testing.T) {
	var o serveOptions
	fs := serveFlags(&o)
	fs.SetOutput(io.Discard)
	if err := fs.Parse([]string{"--trusted-proxy", "10.1.2.3/8", "--trusted-proxy", "::1", "--max-conns-per-addr", "16"}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(o.trustedProxies); got != "[10.0.0.0/8 ::1/128]" || o.maxConnsPerAddr != 16 {
		t.Errorf("--trusted-proxy 10.1.2.3/8 ::1 --max-conns-per-addr 16 = %s, %d; want [10.0.0.0/8 ::1/128], 16", got, o.maxConnsPerAddr)
	}
	if err := serveFlags(&serveOptions{}).Parse([]string{"--trusted-proxy", "proxy.local"}); err == nil || !strings.Contains(err.Error(), "CIDR") {
		t.Errorf("--trusted-proxy proxy.local = %v; want an error asking for an address or a CIDR", err)
	}
}
