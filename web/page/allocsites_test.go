package page

import (
	"testing"

	"ratelab/grader/report"
)

// TestBenchListsItsAllocationSites: a benchmark check with allocation
// sites lists each, in the report's order, with its rate (the digits that
// tell a rate below one from none) and its kind when it has one; one
// without lists nothing.
func TestBenchListsItsAllocationSites(t *testing.T) {
	c := report.Check{ID: "fairqueue/budget", Kind: report.Benchmark, Status: report.Failed,
		NsPerOp: ptr(46.1), AllocsPerOp: ptr(0.72), BudgetNs: ptr(100),
		AllocationSites: []report.AllocSite{
			{File: "fairqueue.go", Line: 41, PerCall: 0.7, Kind: "append"},
			{File: "ring.go", Line: 7, PerCall: 0.02},
		}}
	doc := render(t, bench(c))
	if got := text(one(t, doc, "allocs-per-op")); got != "0.72" {
		t.Errorf("allocs/op = %q, want 0.72", got)
	}
	one(t, doc, "allocation-sites")
	sites := byTestID(doc, "allocation-site")
	want := []string{"fairqueue.go:41 0.7 a call (append)", "ring.go:7 0.02 a call"}
	if sites.Length() != len(want) {
		t.Fatalf("%d sites listed, want %d", sites.Length(), len(want))
	}
	for i, w := range want {
		if got := text(sites.Eq(i)); got != w {
			t.Errorf("site %d = %q, want %q", i, got, w)
		}
	}

	c.AllocationSites = nil
	if n := byTestID(render(t, bench(c)), "allocation-sites").Length(); n != 0 {
		t.Errorf("a benchmark without sites lists %d", n)
	}
}
