package main

import (
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/grader"
)

// runnerResult is what autograding-grading-reporter reads.
type runnerResult struct {
	Version  int     `json:"version"`
	Status   string  `json:"status"`
	MaxScore float64 `json:"max_score"`
	Tests    []struct {
		Name    string  `json:"name"`
		Status  string  `json:"status"`
		Score   float64 `json:"score"`
		Message string  `json:"message"`
	} `json:"tests"`
}

// toRunnerResult runs contrib/github-classroom/runner-result.sh on report.
func toRunnerResult(t *testing.T, report string) runnerResult {
	t.Helper()
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("runner-result.sh needs jq, as on GitHub's runners")
	}
	cmd := exec.Command(filepath.Join("..", "..", "contrib", "github-classroom", "runner-result.sh"))
	cmd.Stdin = strings.NewReader(report)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("runner-result.sh: %v", err)
	}
	b, err := base64.StdEncoding.DecodeString(string(out))
	if err != nil {
		t.Fatalf("not base64: %v: %q", err, out)
	}
	var r runnerResult
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("not a runner result: %v: %s", err, b)
	}
	return r
}

func TestRunnerResultFromAReport(t *testing.T) {
	stdout, _, _ := run(t, "grade", "--json", "--solutions", "--no-bench", "--exercise", "gcra")
	r := toRunnerResult(t, stdout)
	plan, _ := grader.Plan("gcra")
	var max, score float64
	for _, c := range plan {
		max += c.MaxScore
	}
	if r.Version != 1 || r.Status != "fail" || r.MaxScore != max || len(r.Tests) != len(plan) {
		t.Fatalf("runner result = %+v; want version 1, fail (benchmarks skipped), max %v, %d tests", r, max, len(plan))
	}
	for i, tc := range r.Tests {
		score += tc.Score
		wantStatus := "pass"
		if plan[i].Kind == "benchmark" {
			wantStatus = "fail"
		}
		if tc.Name != plan[i].ID+" ["+plan[i].Pitfall+"]" || tc.Status != wantStatus {
			t.Errorf("test %d = %q %s; want %q %s", i, tc.Name, tc.Status, plan[i].ID, wantStatus)
		}
	}
	if score == 0 || score == max {
		t.Errorf("points %v of %v; want the properties' points without the benchmarks'", score, max)
	}
}

func TestRunnerResultWithoutAReport(t *testing.T) {
	for _, in := range []string{"", "exit status 2\n", `{"schema": "something else"}`} {
		if r := toRunnerResult(t, in); r.Status != "error" || r.MaxScore != 0 || len(r.Tests) != 1 {
			t.Errorf("runner result of %q = %+v; want one error worth nothing", in, r)
		}
	}
}
