package console

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"ratelab/grader"
	"ratelab/grader/report"
)

// TestReportTableLinesUp checks that the points of every row of the table
// start in the same column, with and without colour, whatever the length
// of the exercises' titles and of the statuses' words.
func TestReportTableLinesUp(t *testing.T) {
	r := &report.Report{Target: "solutions", Seed: 1, Score: 40, MaxScore: 80, Exercises: []report.Exercise{
		{ID: "tokenbucket", Week: 1, Title: "Token bucket", Status: report.Passed, Score: 35, MaxScore: 35},
		{ID: "throttle", Week: 5, Title: "Breaker, rate limit, congestion", Status: report.NotStarted, MaxScore: 40, Message: "not started"},
		{ID: "gcra", Week: 1, Title: "GCRA", Status: report.Failed, Score: 5, MaxScore: 5},
	}}
	ansi := regexp.MustCompile("\x1b\\[[0-9;]*m")
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		Printer{W: &b, Color: color}.Report(r)
		lines := strings.Split(ansi.ReplaceAllString(b.String(), ""), "\n")
		at := -1
		rows := 0
		for _, l := range lines {
			for _, points := range []string{"points", "35/35", "0/40", "5/5", "40/80"} {
				if !strings.HasSuffix(l, " "+points) {
					continue
				}
				rows++
				col := len(l) - len(points)
				if at == -1 {
					at = col
				} else if col != at {
					t.Errorf("color %v: %q has its points at column %d, the header at %d", color, l, col, at)
				}
			}
		}
		if rows != 5 {
			t.Errorf("color %v: found %d rows of the table, want 5:\n%s", color, rows, b.String())
		}
	}
}

// TestBenchmarksSayWhichRunIsShown checks that the benchmarks' summary
// names the figure the budget check judges: the fastest run.
func TestBenchmarksSayWhichRunIsShown(t *testing.T) {
	ns, allocs, budget, ref := 12.5, 0.0, 40.0, 10.0
	r := &report.Report{Exercises: []report.Exercise{{ID: "gcra", Status: report.Passed, Checks: []report.Check{
		{ID: "gcra/budget", Kind: report.Benchmark, Status: report.Passed, NsPerOp: &ns, AllocsPerOp: &allocs, BudgetNs: &budget, RefNsPerOp: &ref},
	}}}}
	var b bytes.Buffer
	Printer{W: &b}.Report(r)
	if out := b.String(); !strings.Contains(out, "the fastest of at least 5 runs") || !strings.Contains(out, "12.5 ns/op") {
		t.Errorf("benchmarks summary does not name the fastest run or its figure:\n%s", out)
	}
}

// TestProgressLinesUp checks that, in colour too, the checks' names in the
// progress lines start in one column whatever their status.
func TestProgressLinesUp(t *testing.T) {
	var b bytes.Buffer
	p := Printer{W: &b, Color: true}
	for _, s := range []report.Status{report.Passed, report.Timeout, report.Failed} {
		p.Progress(grader.Event{Exercise: "gcra", Phase: grader.PhaseResult, Result: &report.Check{ID: "gcra/exactness", Status: s, MaxScore: 5}})
	}
	ansi := regexp.MustCompile("\x1b\\[[0-9;]*m")
	at := -1
	for _, l := range strings.Split(strings.TrimSpace(ansi.ReplaceAllString(b.String(), "")), "\n") {
		col := strings.Index(l, "exactness")
		if at == -1 {
			at = col
		} else if col != at {
			t.Errorf("%q has the check's name at column %d, the first line at %d", l, col, at)
		}
	}
}

// TestSkippedCheckSaysWhy checks that a skipped check, whose points are
// missing from the total, is listed with the reason it was skipped.
func TestSkippedCheckSaysWhy(t *testing.T) {
	r := &report.Report{Seed: 1, Score: 22, MaxScore: 25, Exercises: []report.Exercise{{ID: "gcra", Week: 1, Title: "GCRA", Status: report.Failed, Score: 22, MaxScore: 25, Checks: []report.Check{
		{ID: "gcra/exactness", Status: report.Passed, Score: 22, MaxScore: 22},
		{ID: "gcra/budget", Kind: report.Benchmark, Status: report.Skipped, MaxScore: 3, Message: "benchmarks were skipped (--no-bench)."},
	}}}}
	var b bytes.Buffer
	Printer{W: &b}.Report(r)
	out := b.String()
	if !strings.Contains(out, "skipped gcra/budget (3 points not earned): benchmarks were skipped (--no-bench).") {
		t.Errorf("the skipped check and its reason are not listed:\n%s", out)
	}
	if strings.Contains(out, "gcra/exactness") {
		t.Errorf("a check that passed is listed:\n%s", out)
	}
}

// TestDiagnosisIsPrinted: a failed check names its mistake (or says none
// is named), and a check that passed with a failure charged elsewhere says
// so in one line; one that simply passed prints nothing.
func TestDiagnosisIsPrinted(t *testing.T) {
	cx := &report.Counterexample{Setup: "New()", Steps: []report.Step{{Call: "Pop()", Got: "1", Want: "2"}}}
	for _, tt := range []struct {
		c    report.Check
		want string // "" for nothing printed
	}{
		{report.Check{ID: "q/turn", Status: report.Failed, Pitfall: "turn", Mistakes: []string{"no-end-of-turn"}, Counterexample: cx}, "mistake: no-end-of-turn"},
		{report.Check{ID: "q/exactness", Status: report.Failed, Pitfall: "exactness", Diagnosis: report.Unnamed, Counterexample: cx}, "mistake: unnamed"},
		{report.Check{ID: "q/fifo", Status: report.Passed, Message: "Passed: the one failure found here is charged once, under turn.", Counterexample: cx, Mistakes: []string{"no-end-of-turn"}}, "q/fifo: Passed: the one failure found here is charged once, under turn."},
		{report.Check{ID: "q/round", Status: report.Passed}, ""},
	} {
		var b bytes.Buffer
		Printer{W: &b}.Check(tt.c, 1)
		if got := b.String(); tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%s: printed %q, want it to say %q", tt.c.ID, got, tt.want)
		}
	}
}

// TestAllocationSitesAreListedUnderTheirBenchmark: a benchmark's
// allocation sites are listed under its figures, each with its rate in the
// allocations' column and its kind when it has one.
func TestAllocationSitesAreListedUnderTheirBenchmark(t *testing.T) {
	ns, allocs, budget := 46.1, 0.72, 40.0
	r := &report.Report{Exercises: []report.Exercise{{ID: "fairqueue", Status: report.Failed, Checks: []report.Check{
		{ID: "fairqueue/budget", Kind: report.Benchmark, Status: report.Failed, NsPerOp: &ns, AllocsPerOp: &allocs, BudgetNs: &budget, AllocationSites: []report.AllocSite{
			{File: "fairqueue.go", Line: 41, PerCall: 0.7, Kind: "append"},
			{File: "ring.go", Line: 7, PerCall: 0.02},
		}},
	}}}}
	var b bytes.Buffer
	Printer{W: &b}.Report(r)
	out := b.String()
	figures := strings.Index(out, "fairqueue/budget ")
	first := strings.Index(out, "fairqueue.go:41")
	second := strings.Index(out, "ring.go:7")
	if figures < 0 || first < figures || second < first {
		t.Fatalf("the sites are not listed under the benchmark's figures, in order:\n%s", out)
	}
	lines := strings.Split(out, "\n")
	var rows []string
	for _, l := range lines {
		if strings.Contains(l, "allocs/op") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 3 {
		t.Fatalf("want 3 rows with allocs/op (the figures and 2 sites), got %q", rows)
	}
	for _, r := range rows[1:] {
		if strings.Index(r, "allocs/op") != strings.Index(rows[0], "allocs/op") {
			t.Errorf("site row %q does not line its rate up with the figures' %q", r, rows[0])
		}
	}
	if !strings.Contains(rows[1], "0.7 allocs/op  append") || !strings.HasSuffix(rows[2], "0.02 allocs/op") {
		t.Errorf("site rows %q, want the rate of each and the kind of the first", rows[1:])
	}
}

// A check reported again unchanged (judging changed only its message) is
// printed once; one whose line changed is printed again, and a new
// grading of the exercise prints every line anew.
func TestProgressPrintsACheckAgainOnlyIfItChanged(t *testing.T) {
	var b bytes.Buffer
	p := Printer{W: &b}
	result := func(s report.Status, score float64) {
		p.Progress(grader.Event{Exercise: "gcra", Phase: grader.PhaseResult, Result: &report.Check{ID: "gcra/exactness", Status: s, Score: score, MaxScore: 5}})
	}
	p.Progress(grader.Event{Exercise: "gcra", Phase: grader.PhaseBuild})
	result(report.Failed, 0)
	result(report.Failed, 0) // judged: the message changed, not the line
	result(report.Passed, 5) // judged: charged elsewhere
	p.Progress(grader.Event{Exercise: "gcra", Phase: grader.PhaseBuild})
	result(report.Passed, 5)
	got := strings.Count(b.String(), "exactness")
	if got != 3 || strings.Count(b.String(), "FAIL") != 1 {
		t.Errorf("printed:\n%s\nwant the failure once, the pass after judging, and the pass of the new grading: 3 lines", b.String())
	}
}
