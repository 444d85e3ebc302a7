package grader_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/grader/sandbox"
)

// bigArray is a learner file that makes the compiler write an object of
// about 512 MiB: into the build cache, without a limit.
const bigArray = `package tokenbucket

var bigA = [1 << 29]byte{1<<29 - 1: 7}
`

func TestBuildFileSizeIsLimited(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program whose object files outgrow the limit")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the build's limits are Linux's")
	}
	cache := filepath.Join(os.TempDir(), "ratelab-build-cache")
	before := dirSize(cache)
	sb := &sandbox.Sandbox{Log: t.Logf, Build: sandbox.BuildLimits{FileSize: 32 << 20}}
	src, err := os.ReadFile(filepath.Join(root(t), "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		t.Fatal(err)
	}
	ex := gradeSource(t, sb, "tokenbucket", map[string]string{"tokenbucket.go": string(src), "big.go": bigArray}, false)
	if ex.Status != report.Error || !strings.Contains(ex.Message, "does not build") {
		t.Errorf("a 512 MiB array: %s %q; want an error, the code does not build", ex.Status, ex.Message)
	}
	if grew := dirSize(cache) - before; grew > 64<<20 {
		t.Errorf("the build cache grew by %d MiB under a 32 MiB file-size limit", grew>>20)
	}
}

func TestCancelledBuildLeavesNothingRunning(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the grading's folders, and so the build's, are under tmp
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(root(t), "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "tokenbucket.go"), src, 0o644)
	os.WriteFile(filepath.Join(dir, "big.go"), []byte(bigArray), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	_, err = grader.Grade(ctx, grader.Options{
		Root: root(t), Exercises: []string{"tokenbucket"}, Seed: grader.DefaultSeed, NoBench: true,
		Replace: map[string]string{"tokenbucket": dir},
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Grade = %v, want the deadline (the build of a 512 MiB array takes longer)", err)
	}
	if left := processesUnder(tmp); len(left) > 0 {
		t.Errorf("processes of the cancelled build still running: %q", left)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("the cancelled grading left %s in the temporary folder", entries[0].Name())
	}
}

// processesUnder lists the command lines that mention dir.
func processesUnder(dir string) []string {
	var out []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, c := range cmdlines {
		b, err := os.ReadFile(c)
		if err == nil && strings.Contains(string(b), dir) {
			out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

func TestBuildMemoryIsLimited(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the build's limits are Linux's")
	}
	sb := &sandbox.Sandbox{Log: t.Logf, Build: sandbox.BuildLimits{Memory: 1 << 30}}
	src, err := os.ReadFile(filepath.Join(root(t), "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		t.Fatal(err)
	}
	ex := gradeSource(t, sb, "tokenbucket", map[string]string{"tokenbucket.go": string(src), "big.go": bigArray}, false)
	if ex.Status != report.Error || !strings.Contains(ex.Message, "does not build") || !strings.Contains(ex.Message, "out of memory") {
		t.Errorf("a 512 MiB array under a 1 GiB memory limit: %s %q; want an error, the compiler out of memory", ex.Status, ex.Message)
	}
	if n := strings.Count(ex.Message, "\n"); n > 60 {
		t.Errorf("the compiler's message is %d lines long, want it cut short", n)
	}
}
