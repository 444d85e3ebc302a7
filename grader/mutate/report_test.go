package mutate

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"ratelab/grader/mutate/hunt"
)

func TestWriteReport(t *testing.T) {
	m := Mutant{File: "x.go", Line: 3, Col: 7, Operator: ConditionalsBoundary, Before: "if a < b {", After: "if a <= b {"}
	listing := Listing{Exercise: "x", Pos: "x.go:3:7", Operator: ConditionalsBoundary, Reason: "a never equals b", Line: 12}
	rs := []Result{{
		Exercise: "x",
		Outcomes: []Outcome{
			{Mutant: m, Verdict: Killed, By: "x/exactness (failed)"},
			{Mutant: m, Verdict: Lived, Hunt: &hunt.Result{Scripts: 1_000_000}},
			{Mutant: m, Verdict: Lived, Hunt: &hunt.Result{Scripts: 12, Script: 11, Killed: true, Check: "edge", Setup: "New()", Call: "F(1)", Got: "true", Want: "false", Steps: 2}},
			{Mutant: m, Verdict: Equivalent, Listing: &listing, Hunt: &hunt.Result{Scripts: 1_000_000}},
			{Mutant: m, Verdict: Killed, Listing: &listing, Wrong: "listed as equivalent, but grading kills it"},
			{Mutant: m, Verdict: Stillborn},
		},
		Stale: []Listing{{Exercise: "x", Pos: "x.go:9:1", Operator: RemoveStatement, Line: 14}},
	}, {Exercise: "y"}}
	var b bytes.Buffer
	Write(&b, rs, time.Minute)
	out := b.String()
	for _, want := range []string{
		"LIVED x/x.go:3:7 CONDITIONALS_BOUNDARY\n    if a < b {  →  if a <= b {\n    no script of 1,000,000 differs",
		"killed by script 11 of the hunt (edge), 2 calls: New() … F(1) = true; want false",
		"WRONGLY LISTED x/x.go:3:7 CONDITIONALS_BOUNDARY (equivalent.txt:12)\n    if a < b {  →  if a <= b {\n    listed as equivalent, but grading kills it; the listing says: a never equals b",
		"STALE LISTING x x.go:9:1 REMOVE_STATEMENT (equivalent.txt:14)",
		"x: 6 mutants, 1 stillborn, 50.0% of the non-equivalent killed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if got := lines[len(lines)-2:]; got[0] != "mutants x: killed 2, equivalent 1, lived 2" || got[1] != "mutants y: killed 0, equivalent 0, lived 0" {
		t.Errorf("last lines = %q, want the summaries of x and y", got)
	}
	if rs[0].Clean() || !rs[1].Clean() {
		t.Errorf("Clean() = %v, %v; want false (x has mutants that lived), true", rs[0].Clean(), rs[1].Clean())
	}
}
