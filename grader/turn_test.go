package grader

import (
	"testing"

	"ratelab/grader/report"
)

// A benchmark check's turn excludes every other step of the grading;
// other steps' turns run beside one another.
func TestABenchmarkCheckRunsAlone(t *testing.T) {
	var g grading
	done := g.turn(report.Property)
	other := g.turn(report.Case) // would block, were steps exclusive
	if g.alone.TryLock() {
		t.Fatal("a benchmark could start while two checks run")
	}
	done()
	other()
	bench := g.turn(report.Benchmark)
	if g.alone.TryRLock() {
		t.Fatal("a check could start while a benchmark runs")
	}
	bench()
	if !g.alone.TryLock() {
		t.Fatal("no turn is held, yet a benchmark cannot start")
	}
}
