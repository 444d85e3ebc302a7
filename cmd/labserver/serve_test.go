package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
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
