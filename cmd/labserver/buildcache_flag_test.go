package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"ratelab/internal/class"
)

// serve --class takes --build-cache and --build-cache-max, as worker does,
// and they open the cache they name with its cap in MiB.
func TestBuildCacheFlags(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o classOptions
	o.flags(fs)
	dir := t.TempDir()
	if err := fs.Parse([]string{"--class", "--build-cache", dir, "--build-cache-max", "3"}); err != nil {
		t.Fatal(err)
	}
	if o.buildCache != dir || o.buildCacheMax != 3 {
		t.Fatalf("parsed --build-cache %q --build-cache-max %d, want %q and 3", o.buildCache, o.buildCacheMax, dir)
	}
	cache, err := openBuildCache(o.buildCache, o.buildCacheMax)
	if err != nil {
		t.Fatal(err)
	}
	if cache == nil || cache.Max() != 3<<20 {
		t.Fatalf("cache %v: want one capped at 3 MiB", cache)
	}

	if cache, err := openBuildCache("", 0); err != nil || cache != nil {
		t.Fatalf(`openBuildCache("", 0) = %v, %v: want no cache, no error`, cache, err)
	}
	if _, err := openBuildCache(dir, -1); err == nil || !strings.Contains(err.Error(), "--build-cache-max -1") {
		t.Fatalf("a negative cap: err %v, want one naming --build-cache-max -1", err)
	}
}

// The grading flags serve --class and worker share fill a class's Config:
// the checks' options and the build cache they name.
func TestGradingFlagsFillTheConfig(t *testing.T) {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var g gradingFlags
	g.register(fs, "", "", "")
	dir := t.TempDir()
	if err := fs.Parse([]string{"--no-bench", "--seed", "7", "--check-timeout", "3s", "--call-cpu", "300ms", "--job-timeout", "1m", "--build-cache", dir, "--build-cache-max", "2"}); err != nil {
		t.Fatal(err)
	}
	var c class.Config
	if err := g.config(&c); err != nil {
		t.Fatal(err)
	}
	if !c.NoBench || c.Seed != 7 || c.CheckTimeout != 3*time.Second || c.CallCPULimit != 300*time.Millisecond || c.JobTimeout != time.Minute || c.BuildCache == nil || c.BuildCache.Max() != 2<<20 {
		t.Fatalf("config %+v: want no benchmarks, seed 7, 3s, 300ms, 1m and a 2 MiB cache", c)
	}
	g.buildCacheMax = -1
	if err := g.config(&c); err == nil {
		t.Fatal("a negative --build-cache-max gave no error")
	}
}
