package check

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"ratelab/grader/report"
)

func TestAllocKind(t *testing.T) {
	for callee, want := range map[string]string{
		"runtime.growslice":         "append",
		"runtime.makeslice":         "make",
		"runtime.makeslicecopy":     "make",
		"runtime.makemap_small":     "map",
		"runtime.makemap":           "map",
		"runtime.mapassign_fast64":  "map",
		"runtime.mapassign_faststr": "map",
		"runtime.mapassign":         "map",
		"runtime.newobject":         "new object",
		"runtime.convT64":           "interface conversion",
		"runtime.convTstring":       "interface conversion",
		"runtime.convT":             "interface conversion",
		"runtime.concatstring2":     "string concatenation",
		"runtime.concatstrings":     "string concatenation",
		"runtime.slicebytetostring": "string conversion",
		"runtime.makechan":          "channel",
		"runtime.newproc":           "goroutine",
		// A function the learner's line called, which allocated inside,
		// or none: no kind.
		"fmt.Sprint":                  "",
		"math/big.(*Int).Mul":         "",
		"ratelab/exercises/gcra.New":  "",
		"runtime.mallocgc":            "",
		"":                            "",
		"runtime.growslice and more":  "",
		"myruntime.growslice":         "",
		"ratelab/x.runtime.growslice": "",
	} {
		if got := AllocKind(callee); got != want {
			t.Errorf("AllocKind(%q) = %q, want %q", callee, got, want)
		}
	}
}

// TestAllocSites: records of one line and one kind are counted together,
// per call, the most first, at most MaxAllocSites; lines under one per
// 1,000 calls, and records that cannot be a line's, are left out.
func TestAllocSites(t *testing.T) {
	recs := []AllocRecord{
		{File: "fairqueue.go", Line: 41, Callee: "runtime.growslice", Count: 600},
		{File: "fairqueue.go", Line: 57, Callee: "runtime.newobject", Count: 20},
		{File: "fairqueue.go", Line: 41, Callee: "runtime.growslice", Count: 100},
		// One line, two ways of growing a map: one kind.
		{File: "ring.go", Line: 9, Callee: "runtime.makemap_small", Count: 30},
		{File: "ring.go", Line: 9, Callee: "runtime.mapassign_fast64", Count: 10},
		{File: "ring.go", Line: 12, Callee: "fmt.Sprint", Count: 50},
		{File: "ring.go", Line: 13, Callee: "runtime.convT64", Count: 5},
		{File: "ring.go", Line: 14, Callee: "runtime.makeslice", Count: 3},
		{File: "", Line: 3, Count: 500},
		{File: "ring.go", Line: 0, Count: 500},
		{File: "ring.go", Line: 2, Count: 0},
	}
	got := AllocSites(recs, 1000)
	want := []report.AllocSite{
		{File: "fairqueue.go", Line: 41, PerCall: 0.7, Kind: "append"},
		{File: "ring.go", Line: 12, PerCall: 0.05},
		{File: "ring.go", Line: 9, PerCall: 0.04, Kind: "map"},
		{File: "fairqueue.go", Line: 57, PerCall: 0.02, Kind: "new object"},
		{File: "ring.go", Line: 13, PerCall: 0.005, Kind: "interface conversion"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("AllocSites =\n%v\nwant\n%v", got, want)
	}
	// A new object where a function literal starts is the closure;
	// anything else made there keeps its kind. A line under one
	// allocation per 1,000 calls is left out.
	got = AllocSites([]AllocRecord{
		{File: "ring.go", Line: 20, Callee: "runtime.newobject", Count: 4, FuncLit: true},
		{File: "ring.go", Line: 20, Callee: "runtime.growslice", Count: 2, FuncLit: true},
		{File: "ring.go", Line: 14, Callee: "runtime.makeslice", Count: 3},
		{File: "ring.go", Line: 15, Callee: "runtime.newobject", Count: 1},
	}, 2000)
	want = []report.AllocSite{
		{File: "ring.go", Line: 20, PerCall: 0.002, Kind: "closure"},
		{File: "ring.go", Line: 14, PerCall: 0.0015, Kind: "make"},
		{File: "ring.go", Line: 20, PerCall: 0.001, Kind: "append"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("AllocSites with a closure =\n%v\nwant\n%v", got, want)
	}
	if got := AllocSites(recs, 0); got != nil {
		t.Errorf("AllocSites of no calls = %v, want none", got)
	}
	if got := AllocSites([]AllocRecord{{File: "a.go", Line: 1, Count: ^uint64(0)}, {File: "a.go", Line: 1, Count: ^uint64(0)}}, 10); len(got) != 1 || got[0].PerCall < 1e18 {
		t.Errorf("AllocSites of counts that would wrap round = %v, want one site of a huge rate", got)
	}
}

// profilingRemote is a timedRemote that is a Profiler too, answering with
// sites, and recording the runs it was asked to profile.
type profilingRemote struct {
	timedRemote
	sites    []AllocRecord
	profiled *[]BenchSpec
}

func (r profilingRemote) Profile(spec BenchSpec) []AllocRecord {
	*r.profiled = append(*r.profiled, spec)
	return r.sites
}

// TestBenchNamesTheSitesOfAnAllocatingLoop: a loop over its allocation
// budget is profiled once more, after the timed runs, and its message
// names the sites in the learner's terms; the verdict is the one the timed
// runs gave, whatever the profile says (none, or lines that cannot explain
// the rate); a loop within the budget is not profiled.
func TestBenchNamesTheSitesOfAnAllocatingLoop(t *testing.T) {
	every := func(n int) uint64 { return uint64(n) }
	sites := []AllocRecord{
		{File: "tokenbucket.go", Line: 52, Callee: "runtime.newobject", Count: 20_000},
		{File: "tokenbucket.go", Line: 60, Callee: "runtime.growslice", Count: 200},
	}
	for _, c := range []struct {
		name      string
		learner   time.Duration
		allocs    func(int) uint64
		sites     []AllocRecord
		profiled  bool
		want      report.Status
		says      string
		siteCount int
	}{
		{"allocates", 20, every, sites, true, report.Failed, "1.00 allocations per call, 1.00 of them at tokenbucket.go:52 (new object) and 0.01 at tokenbucket.go:60 (append); a limiter", 2},
		{"allocates and is slow", 60, every, sites, true, report.Failed, "60.0 ns and 1.00 allocations per call, 1.00 of them at tokenbucket.go:52 (new object) and 0.01 at tokenbucket.go:60 (append); the budget", 2},
		{"allocates, no sites found", 20, every, nil, true, report.Failed, "1.00 allocations per call; a limiter", 0},
		{"within the budget", 20, func(int) uint64 { return 0 }, sites, false, report.Passed, "Fastest of", 0},
		{"slow, without allocating", 60, func(int) uint64 { return 0 }, sites, false, report.Failed, "over the 40 ns budget", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var profiled []BenchSpec
			r := profilingRemote{timedRemote{learner: c.learner, reference: 18, allocs: c.allocs}, c.sites, &profiled}
			o := Bench{BudgetNs: 40, Remote: r, Expected: fakeExpected}.Run()
			if o.Status != c.want || !strings.Contains(o.Message, c.says) {
				t.Errorf("%s: %q; want %s saying %q", o.Status, o.Message, c.want, c.says)
			}
			if got := len(o.Bench.Sites); got != c.siteCount {
				t.Errorf("%d sites %v, want %d", got, o.Bench.Sites, c.siteCount)
			}
			if len(profiled) != map[bool]int{true: 1}[c.profiled] {
				t.Fatalf("profiled runs %v, want %d", profiled, map[bool]int{true: 1}[c.profiled])
			}
			if c.profiled {
				if p, want := profiled[0], countedRun(0, 20); p != want {
					t.Errorf("profiled run %+v, want the counted run %+v: one allocation a call", p, want)
				}
			}
		})
	}
}

// TestProfileCalls: the profiled run is the counted run, shortened only
// for a loop that allocates more than once a call (by its rate rounded to
// a whole number).
func TestProfileCalls(t *testing.T) {
	for _, c := range []struct {
		rate float64
		n    int
		want int
	}{
		{1, 20_000, 20_000},
		{0.3, 20_000, 20_000},
		{1.0001, 20_000, 20_000},
		{1.6, 20_000, 10_000},
		{4, 20_000, 5_000},
		{1000, 20_000, 20},
		{2023, 20_000, 10},
		{1e9, 20_000, 10},
		{1, 300, 300},
		{3000, 5, 5},
	} {
		if got := profileCalls(c.rate, c.n); got != c.want {
			t.Errorf("profileCalls(%v, %d) = %d, want %d", c.rate, c.n, got, c.want)
		}
	}
}

// TestCountedRun: the run whose allocations are counted has a fixed
// length and a seed no timed run has, whatever the loop's speed, unless
// the loop is so slow that it would take over allocTime.
func TestCountedRun(t *testing.T) {
	for _, ns := range []float64{0, 20, 2_000, 30_000} {
		if got, want := countedRun(7, ns), (BenchSpec{Loop: "learner", Seed: RunSeed(7, 0), Warm: AllocWarm, N: AllocCalls}); got != want {
			t.Errorf("countedRun(7, %v) = %+v, want %+v", ns, got, want)
		}
	}
	slow := countedRun(7, 1e6) // 1 ms a call
	if d := time.Duration(float64(slow.Warm+slow.N) * 1e6); d > allocTime || slow.N < 10 || slow.Warm == 0 || slow.N*AllocWarm/AllocCalls > slow.Warm+1 {
		t.Errorf("countedRun of a loop taking 1 ms a call = %+v (%v), want within %v, shrunk alike", slow, d, allocTime)
	}
	if got := countedRun(7, 1e12); got.N != 10 {
		t.Errorf("countedRun of a loop taking 1,000 s a call counts %d calls, want 10", got.N)
	}
}
