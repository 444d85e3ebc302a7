package gradescope_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/grader/report/gradescope"
)

// gradeFixture grades a tokenbucket fixture without benchmarks.
func gradeFixture(t *testing.T, name string) *report.Report {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	r, err := grader.Grade(context.Background(), grader.Options{
		Root: root, Exercises: []string{"tokenbucket"}, Seed: grader.DefaultSeed, NoBench: true,
		Replace: map[string]string{"tokenbucket": filepath.Join(root, "grader", "testdata", "fixtures", "tokenbucket", name)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// roundTrip marshals res and reads it back as plain JSON, as Gradescope
// would.
func roundTrip(t *testing.T, res gradescope.Results) map[string]any {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestFromAFailedGrading(t *testing.T) {
	r := gradeFixture(t, "no-cap")
	ex := r.Exercises[0]
	doc := roundTrip(t, gradescope.From(r, 2400*time.Millisecond))
	for _, k := range []string{"score", "execution_time", "output", "visibility", "stdout_visibility", "tests"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("results.json lacks %q", k)
		}
	}
	if doc["score"] != r.Score || doc["execution_time"] != 2.0 || doc["visibility"] != "visible" || doc["stdout_visibility"] != "hidden" {
		t.Errorf("results header = score %v, execution_time %v, visibility %v, stdout %v; want %v, 2, visible, hidden",
			doc["score"], doc["execution_time"], doc["visibility"], doc["stdout_visibility"], r.Score)
	}
	tests, _ := doc["tests"].([]any)
	if len(tests) != len(ex.Checks) {
		t.Fatalf("%d tests, want one per check (%d)", len(tests), len(ex.Checks))
	}
	var score, max float64
	var numbers []string
	failedCapacity := false
	for i, x := range tests {
		tc := x.(map[string]any)
		c := ex.Checks[i]
		for _, k := range []string{"name", "number", "score", "max_score", "status", "output", "visibility", "tags"} {
			if _, ok := tc[k]; !ok {
				t.Errorf("test %d lacks %q", i, k)
			}
		}
		if want := "tokenbucket: " + c.Title + " [" + c.Pitfall + "]"; tc["name"] != want {
			t.Errorf("test %d name = %q, want %q", i, tc["name"], want)
		}
		score += tc["score"].(float64)
		max += tc["max_score"].(float64)
		numbers = append(numbers, tc["number"].(string))
		status, output := tc["status"].(string), tc["output"].(string)
		switch c.Status {
		case report.Passed:
			if status != "passed" || output != "" {
				t.Errorf("%s passed: status %q output %q; want passed and no output", c.ID, status, output)
			}
		case report.Skipped:
			if status != "failed" || !strings.HasPrefix(output, "skipped: ") {
				t.Errorf("%s skipped: status %q output %q; want failed, skipped: and why", c.ID, status, output)
			}
		default:
			if status != "failed" || !strings.Contains(output, c.Message[:min(40, len(c.Message))]) || !strings.Contains(output, "pitfall: "+c.Pitfall) {
				t.Errorf("%s %s: status %q output %q; want failed with the report's text", c.ID, c.Status, status, output)
			}
			if c.Counterexample != nil && !strings.Contains(output, "replay it (seed 1):\n    "+c.Counterexample.Setup) {
				t.Errorf("%s: output lacks the counterexample:\n%s", c.ID, output)
			}
			if c.Hint != "" && !strings.Contains(output, "hint: "+c.Hint) {
				t.Errorf("%s: output lacks the hint:\n%s", c.ID, output)
			}
			if c.Pitfall == "capacity" {
				failedCapacity = true
			}
		}
	}
	if !failedCapacity {
		t.Error("the no-cap fixture's capacity check is not among the failed tests")
	}
	if score != r.Score || max != r.MaxScore {
		t.Errorf("tests add up to %v/%v, want the report's %v/%v", score, max, r.Score, r.MaxScore)
	}
	if slices.Sort(numbers); len(slices.Compact(numbers)) != len(tests) {
		t.Errorf("test numbers repeat: %v", numbers)
	}
	if out := doc["output"].(string); !strings.Contains(out, "Token bucket (tokenbucket): failed") {
		t.Errorf("output = %q, want the exercise's line", out)
	}
}

func TestFromACompileError(t *testing.T) {
	r := gradeFixture(t, "nocompile")
	doc := roundTrip(t, gradescope.From(r, time.Second))
	if doc["score"] != 0.0 {
		t.Errorf("score = %v, want 0", doc["score"])
	}
	if out := doc["output"].(string); !strings.Contains(out, "tokenbucket): error") || !strings.Contains(out, "does not build") {
		t.Errorf("output = %q, want the build error", out)
	}
	for _, x := range doc["tests"].([]any) {
		if tc := x.(map[string]any); tc["status"] != "failed" || tc["score"] != 0.0 {
			t.Errorf("test %v: want failed with 0 points", tc["name"])
		}
	}
}

func TestFailure(t *testing.T) {
	doc := roundTrip(t, gradescope.Failure("no Go toolchain on PATH"))
	if doc["score"] != 0.0 || doc["output"] != "could not grade: no Go toolchain on PATH" || len(doc["tests"].([]any)) != 0 {
		t.Errorf("Failure = %v; want score 0, the reason, no tests", doc)
	}
}
