package main

import (
	"encoding/json"
	"strings"
	"testing"

	"ratelab/grader/report"
)

func TestGradeStubsJSON(t *testing.T) {
	stdout, stderr, code := run(t, "grade", "--json", "--exercise", "tokenbucket")
	if code != 1 {
		t.Errorf("exit %d, want 1 (graded, not full marks); stderr:\n%s", code, stderr)
	}
	var r report.Report
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("stdout is not one report: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Error("stdout holds more than the report")
	}
	if r.Schema != report.Schema || r.Target != "exercises" || r.Seed != 1 || len(r.Exercises) != 1 {
		t.Errorf("report header = %+v", r)
	}
	if e := r.Exercises[0]; e.Status != report.NotStarted || e.MaxScore == 0 {
		t.Errorf("tokenbucket: %s %v/%v, want not_started", e.Status, e.Score, e.MaxScore)
	}
	if !strings.Contains(stderr, "tokenbucket") {
		t.Errorf("progress should go to stderr, got %q", stderr)
	}
}

func TestGradeSolutionsTerminalReport(t *testing.T) {
	stdout, _, code := run(t, "grade", "--solutions", "--no-bench", "--exercise", "tokenbucket", "--seed", "3")
	// Benchmarks skipped: full marks are out of reach, so exit 1, and every
	// property and case passed.
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"target solutions/, seed 3", "Token bucket (tokenbucket)", "total"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "\x1b[") {
		t.Error("colour codes in output that is not a terminal")
	}
}

func TestGradeBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"grade", "--frobnicate"},
		{"grade", "--exercise", "leakybucket"},
		{"grade", "extra"},
	} {
		_, stderr, code := run(t, args...)
		if code != 2 || stderr == "" {
			t.Errorf("labserver %s: exit %d, stderr %q; want exit 2 and a message", strings.Join(args, " "), code, stderr)
		}
	}
	if _, stderr, code := run(t, "nosuchcommand"); code != 2 || !strings.Contains(stderr, "grade") {
		t.Errorf("unknown command: exit %d, stderr %q; want 2 and the list of commands", code, stderr)
	}
}
