package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/grader"
	"ratelab/grader/report/gradescope"
)

func TestGradeFormatGradescope(t *testing.T) {
	stdout, stderr, code := run(t, "grade", "--format", "gradescope", "--solutions", "--no-bench", "--exercise", "gcra")
	if code != 1 {
		t.Errorf("exit %d, want 1 (benchmarks skipped); stderr:\n%s", code, stderr)
	}
	var res gradescope.Results
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("stdout is not one results.json: %v\n%s", err, stdout)
	}
	plan, _ := grader.Plan("gcra")
	if len(res.Tests) != len(plan) {
		t.Fatalf("%d tests, want one per check (%d)", len(res.Tests), len(plan))
	}
	var score, max float64
	for i, tc := range res.Tests {
		score += tc.Score
		max += tc.MaxScore
		if tc.MaxScore != plan[i].MaxScore || !strings.HasPrefix(tc.Name, "gcra: "+plan[i].Title) {
			t.Errorf("test %d = %q %v points; want %q, %v", i, tc.Name, tc.MaxScore, plan[i].Title, plan[i].MaxScore)
		}
		if want := gradescope.Passed; plan[i].Kind == "benchmark" {
			if tc.Status != gradescope.Failed || tc.Score != 0 {
				t.Errorf("%s (skipped benchmark): %s %v, want failed with 0", tc.Name, tc.Status, tc.Score)
			}
		} else if tc.Status != want || tc.Score != tc.MaxScore {
			t.Errorf("%s: %s %v/%v, want the reference to pass", tc.Name, tc.Status, tc.Score, tc.MaxScore)
		}
	}
	if score != res.Score || score == 0 || score == max {
		t.Errorf("score %v, tests add up to %v of %v; want them equal, neither 0 nor full marks", res.Score, score, max)
	}
}

func TestGradeFormatFlags(t *testing.T) {
	for _, args := range [][]string{
		{"grade", "--format", "xml"},
		{"grade", "--json", "--format", "gradescope"},
	} {
		stdout, stderr, code := run(t, args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "--format") {
			t.Errorf("labserver %s: exit %d, stdout %q, stderr %q; want 2 and a message about --format", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	asJSON, _, _ := run(t, "grade", "--json", "--exercise", "tokenbucket")
	format, _, _ := run(t, "grade", "--format", "json", "--exercise", "tokenbucket")
	if asJSON != format || !strings.Contains(format, `"schema": "ratelab.grade/v1"`) {
		t.Errorf("--format json differs from --json:\n%s\n%s", asJSON, format)
	}
}

// autograder lays out a fake /autograder under a temporary folder: the
// course's checkout (the packages a grading needs), the labserver built by
// TestMain, and a submission holding files.
func autograder(t *testing.T, files map[string]string) (dir string, env []string) {
	t.Helper()
	dir = t.TempDir()
	source := filepath.Join(dir, "source")
	for _, p := range []string{"go.mod", "go.sum", "grader", "solutions", "exercises", "lab"} {
		if err := copyTree(filepath.Join("..", "..", p), filepath.Join(source, p)); err != nil {
			t.Fatal(err)
		}
	}
	for name, src := range files {
		p := filepath.Join(dir, "submission", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "submission"), 0o755)
	env = append(os.Environ(), "AUTOGRADER="+dir, "RATELAB_LABSERVER="+binary,
		"RATELAB_GRADE_FLAGS=--no-bench", "RATELAB_DB="+filepath.Join(dir, "lab.db"))
	return dir, env
}

// copyTree copies the regular files under src, testdata and node_modules
// aside.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}

// runAutograder runs contrib/gradescope/run_autograder and reads the
// results.json it wrote.
func runAutograder(t *testing.T, dir string, env []string) map[string]any {
	t.Helper()
	script, _ := filepath.Abs(filepath.Join("..", "..", "contrib", "gradescope", "run_autograder"))
	cmd := exec.Command(script)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("run_autograder: %v\n%s", err, out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "results", "results.json"))
	if err != nil {
		t.Fatalf("no results.json: %v\n%s", err, out.String())
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("results.json is not JSON: %v\n%s", err, b)
	}
	return doc
}

func fixture(t *testing.T, exercise, name string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "grader", "testdata", "fixtures", exercise, name, "*.go"))
	if len(files) != 1 {
		t.Fatalf("fixture %s/%s: %d files, want 1", exercise, name, len(files))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRunAutograderGradesLooseFiles(t *testing.T) {
	src := fixture(t, "tokenbucket", "no-cap")
	dir, env := autograder(t, map[string]string{"tokenbucket.go": src, "mine_test.go": "package tokenbucket\n\nthis is not Go\n"})
	doc := runAutograder(t, dir, env)
	score, _ := doc["score"].(float64)
	tests, _ := doc["tests"].([]any)
	plan, _ := grader.Plan("tokenbucket")
	if score <= 0 || len(tests) != len(plan) {
		t.Fatalf("results.json: score %v, %d tests; want some points and %d tests\n%v", score, len(tests), len(plan), doc)
	}
	capacity := false
	for _, x := range tests {
		tc := x.(map[string]any)
		if strings.HasSuffix(tc["name"].(string), "[capacity]") {
			capacity = tc["status"] == "failed" && strings.Contains(tc["output"].(string), "replay it")
		}
	}
	if !capacity {
		t.Errorf("the no-cap fixture's capacity test did not fail with a counterexample:\n%v", tests)
	}
	got, err := os.ReadFile(filepath.Join(dir, "source", "exercises", "tokenbucket", "tokenbucket.go"))
	if err != nil || string(got) != src {
		t.Errorf("the checkout's exercises/tokenbucket/tokenbucket.go is not the submitted file (%v)", err)
	}
}

func TestRunAutograderBuildErrorScoresZero(t *testing.T) {
	dir, env := autograder(t, map[string]string{"exercises/tokenbucket/tokenbucket.go": fixture(t, "tokenbucket", "nocompile")})
	doc := runAutograder(t, dir, env)
	if doc["score"] != 0.0 || !strings.Contains(doc["output"].(string), "does not build") {
		t.Errorf("results.json = score %v, output %q; want 0 and the build error", doc["score"], doc["output"])
	}
	if tests, _ := doc["tests"].([]any); len(tests) == 0 {
		t.Error("a build error lists no tests: the learner cannot see what the points were for")
	}
}

func TestRunAutograderWithoutAGradeSaysWhy(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		env   string
		want  string
	}{
		{"no files", nil, "", "no exercise files"},
		{"not an exercise", map[string]string{"main.go": "package main\n"}, "", "no exercise files"},
		{"no labserver", map[string]string{"tokenbucket.go": "package tokenbucket\n"}, "RATELAB_LABSERVER=/nonexistent/labserver", "not set up"},
		{"labserver fails", map[string]string{"tokenbucket.go": "package tokenbucket\n"}, "RATELAB_GRADE_FLAGS=--frobnicate", "stopped (exit status 2)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, env := autograder(t, c.files)
			if c.env != "" {
				env = append(env, c.env)
			}
			doc := runAutograder(t, dir, env)
			if doc["score"] != 0.0 || !strings.Contains(doc["output"].(string), c.want) || doc["tests"] == nil {
				t.Errorf("results.json = %v; want score 0, no tests and %q", doc, c.want)
			}
		})
	}
}
