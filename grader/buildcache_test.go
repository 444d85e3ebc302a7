package grader_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/build"
	"ratelab/grader/buildcache"
	"ratelab/grader/report"
)

// gradeCached grades the tokenbucket files in dir without benchmarks,
// through cache, and returns the report as JSON and how many go builds
// ran meanwhile.
func gradeCached(t *testing.T, cache *buildcache.Cache, dir string) (string, int64) {
	t.Helper()
	before := build.Runs()
	r, err := grader.Grade(context.Background(), grader.Options{
		Root: root(t), Exercises: []string{"tokenbucket"}, Seed: grader.DefaultSeed, NoBench: true,
		Replace: map[string]string{"tokenbucket": dir}, CheckTimeout: 20 * time.Second, BuildCache: cache,
	})
	if err != nil {
		t.Fatalf("Grade: %v", err)
	}
	if r.Exercises[0].Status == report.Error {
		t.Fatalf("tokenbucket: %s", r.Exercises[0].Message)
	}
	b, _ := json.Marshal(r)
	return string(b), build.Runs() - before
}

// copyFixture copies a tokenbucket fixture into a new folder, as an
// upload lands in one.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("testdata", "fixtures", "tokenbucket", name)
	files, _ := filepath.Glob(filepath.Join(src, "*.go"))
	if len(files) == 0 {
		t.Fatalf("no fixture %s", src)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func openCache(t *testing.T, max int64) *buildcache.Cache {
	t.Helper()
	c, err := buildcache.Open(filepath.Join(t.TempDir(), "programs"), max)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A second grading of identical files, uploaded to another folder, does
// not run go build and gives the same report; one changed byte builds
// again.
func TestBuildCacheRegradeDoesNotBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and grades twice (make test runs it; the cache's concurrency is tested in -short mode too)")
	}
	cache := openCache(t, 0)
	first, builds := gradeCached(t, cache, copyFixture(t, "no-cap"))
	if builds < 1 {
		t.Fatalf("the first grading ran %d go builds, want at least 1", builds)
	}
	second, builds := gradeCached(t, cache, copyFixture(t, "no-cap"))
	if builds != 0 {
		t.Errorf("a regrade of identical files ran %d go builds, want 0", builds)
	}
	if second != first {
		t.Errorf("the regrade's report differs from the first:\n%s\n%s", first, second)
	}

	dir := copyFixture(t, "no-cap")
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	b, _ := os.ReadFile(files[0])
	os.WriteFile(files[0], append(b, '\n'), 0o644)
	if _, builds := gradeCached(t, cache, dir); builds != 1 {
		t.Errorf("a grading with one byte more ran %d go builds, want 1", builds)
	}
	if s := cache.Stats(); s.Hits != 1 || s.Puts != 2 {
		t.Errorf("cache stats %+v; want 1 hit, 2 puts", s)
	}
}

// Gradings of the same files at once build once; both reports are right.
func TestBuildCacheConcurrentGradingsBuildOnce(t *testing.T) {
	cache := openCache(t, 0)
	before := build.Runs()
	reports := make([]string, 3)
	var wg sync.WaitGroup
	for i := range reports {
		dir := copyFixture(t, "correct-split")
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], _ = gradeCached(t, cache, dir)
		}()
	}
	wg.Wait()
	if n := build.Runs() - before; n != 1 {
		t.Errorf("3 gradings of the same files at once ran %d go builds, want 1", n)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(reports[0]), &r); err != nil || r.Exercises[0].Status != report.Failed || r.Score != r.MaxScore-benchPoints(r) {
		t.Errorf("a correct fixture without benchmarks: %v %+v; want every check but the benchmarks passed", err, r.Exercises)
	}
	for i := 1; i < len(reports); i++ {
		if reports[i] != reports[0] {
			t.Errorf("grading %d differs from grading 0:\n%s\n%s", i, reports[0], reports[i])
		}
	}
}

func benchPoints(r report.Report) float64 {
	var p float64
	for _, e := range r.Exercises {
		for _, c := range e.Checks {
			if c.Kind == report.Benchmark {
				p += c.MaxScore
			}
		}
	}
	return p
}

// A damaged entry is built again, and the grade is the same.
func TestBuildCacheDamagedEntryBuildsAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and grades twice (make test runs it; the cache's concurrency is tested in -short mode too)")
	}
	cache := openCache(t, 0)
	first, _ := gradeCached(t, cache, copyFixture(t, "no-cap"))
	entries, _ := filepath.Glob(filepath.Join(cache.Dir(), "*"))
	if len(entries) != 1 {
		t.Fatalf("the cache holds %d entries after one grading, want 1", len(entries))
	}
	b, _ := os.ReadFile(entries[0])
	b[len(b)/2] ^= 0xff
	os.WriteFile(entries[0], b, 0o600)
	again, builds := gradeCached(t, cache, copyFixture(t, "no-cap"))
	if builds != 1 {
		t.Errorf("a grading over a damaged entry ran %d go builds, want 1", builds)
	}
	if again != first {
		t.Errorf("the grade over a damaged entry differs:\n%s\n%s", first, again)
	}
}

// A cap smaller than one program keeps nothing: every grading builds.
func TestBuildCacheCapEvicts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and grades twice (make test runs it; the cache's concurrency is tested in -short mode too)")
	}
	cache := openCache(t, 1)
	gradeCached(t, cache, copyFixture(t, "no-cap"))
	if _, builds := gradeCached(t, cache, copyFixture(t, "no-cap")); builds != 1 {
		t.Errorf("with a 1-byte cap a regrade ran %d go builds, want 1", builds)
	}
	if s := cache.Stats(); s.Evictions != 2 {
		t.Errorf("cache stats %+v; want 2 evictions", s)
	}
}

// BenchmarkRegrade grades again, one by one, 100 submissions graded
// before (tokenbucket fixtures, each made distinct by a comment), without
// benchmarks, with and without a build cache: the figure class mode's
// Regrade all turns on. The cache is filled by a first pass, not timed;
// -benchtime 100x regrades each submission once. Run it on a tree nobody
// edits meanwhile: a change to a source the child links builds again, as
// it should.
func BenchmarkRegrade(b *testing.B) {
	const submissions = 100
	fixtures := []string{"no-cap", "partial-take", "correct-split", "correct-timetofull", "clock-by-whole-ns"}
	dirs := make([]string, submissions)
	for i := range dirs {
		dirs[i] = b.TempDir()
		src := filepath.Join("testdata", "fixtures", "tokenbucket", fixtures[i%len(fixtures)])
		files, _ := filepath.Glob(filepath.Join(src, "*.go"))
		for j, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			if j == 0 {
				data = fmt.Appendf(data, "\n// submission %d\n", i)
			}
			os.WriteFile(filepath.Join(dirs[i], filepath.Base(f)), data, 0o644)
		}
	}
	root, _ := filepath.Abs("..")
	// building is the time from the build's start to the first check's:
	// the build (or the copy from the cache) and the child's start.
	var building time.Duration
	grade := func(cache *buildcache.Cache, dir string) {
		var start time.Time
		_, err := grader.Grade(context.Background(), grader.Options{
			Root: root, Exercises: []string{"tokenbucket"}, Seed: grader.DefaultSeed, NoBench: true,
			Replace: map[string]string{"tokenbucket": dir}, BuildCache: cache,
			Progress: func(e grader.Event) {
				switch {
				case e.Phase == grader.PhaseBuild:
					start = time.Now()
				case e.Phase == grader.PhaseStart && !start.IsZero():
					building += time.Since(start)
					start = time.Time{}
				}
			},
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, cached := range []bool{false, true} {
		name := "no-cache"
		if cached {
			name = "cache"
		}
		b.Run(name, func(b *testing.B) {
			var cache *buildcache.Cache
			if cached {
				var err error
				if cache, err = buildcache.Open(b.TempDir(), 0); err != nil {
					b.Fatal(err)
				}
			}
			for _, d := range dirs {
				grade(cache, d) // the first grading of each, and Go's own build cache, warm
			}
			builds := build.Runs()
			building = 0
			i := 0
			for b.Loop() {
				grade(cache, dirs[i%len(dirs)])
				i++
			}
			b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "gradings/s")
			b.ReportMetric(float64(build.Runs()-builds)/float64(i), "builds/op")
			b.ReportMetric(building.Seconds()/float64(i), "build-s/op")
		})
	}
}
