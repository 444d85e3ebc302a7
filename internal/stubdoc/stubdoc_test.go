package stubdoc_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/grader"
	"ratelab/grader/check"
	"ratelab/internal/stubdoc"
	"ratelab/lab/course"
)

// TestStubsSayWhatTheGraderDoes: every gradable exercise's stub ends its
// package doc with the Grading section stubdoc writes from the grader's
// own figures, and every exercise of the course is gradable.
func TestStubsSayWhatTheGraderDoes(t *testing.T) {
	root := filepath.Join("..", "..")
	if n, m := len(grader.Gradable()), len(course.Exercises()); n != m {
		t.Fatalf("%d of the course's %d exercises are gradable", n, m)
	}
	for _, e := range grader.Gradable() {
		name, err := stubdoc.File(filepath.Join(root, "exercises", e.ID))
		if err != nil {
			t.Errorf("%s: %v", e.ID, err)
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := stubdoc.Rewrite(src, stubdoc.Section(e.ID, grader.Budget(e.ID)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if string(want) != string(src) {
			t.Errorf("%s: its Grading section is not what the grader says: run make generate", name)
		}
	}
}

// TestSectionStatesTheBudget: the section names the exercise, and the
// budget's figures when there is one (whole numbers with commas), wrapped
// as a doc comment.
func TestSectionStatesTheBudget(t *testing.T) {
	b := &check.Budget{Ns: 60, Iteration: check.Iteration{What: "a Push and a Pop, among 1,000 sessions,", Per: "pair"}}
	s := stubdoc.Section("fairqueue", b)
	for _, want := range []string{
		"--exercise fairqueue\n",
		"a Push and a Pop, among 1,000 sessions, must take at most 60 ns per pair",
		"20,000 pairs after a warm-up of 65,536",
		"at most one per 100 pairs",
		"an allocation on every pair, or every few pairs, is not.",
	} {
		if !strings.Contains(strings.ReplaceAll(strings.ReplaceAll(s, "\n// ", " "), "\n//\t", " "), want) {
			t.Errorf("section lacks %q:\n%s", want, s)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if !strings.HasPrefix(line, "//") || len(line) > 80 {
			t.Errorf("line %q: want a comment line of at most 80 characters", line)
		}
	}
	if !strings.HasPrefix(s, stubdoc.Heading+"\n//\n") || !strings.HasSuffix(s, "is not.\n") {
		t.Errorf("section does not open with its heading and end with its last line:\n%s", s)
	}
	if strings.Contains(stubdoc.Section("governor", nil), "speed budget") {
		t.Error("an exercise without a budget check has a speed budget in its section")
	}
}

// TestRewriteKeepsEverythingElse: Rewrite replaces the section alone, and
// refuses a file whose section is not the end of its package doc.
func TestRewriteKeepsEverythingElse(t *testing.T) {
	src := "// Package x is an exercise.\n//\n" + stubdoc.Heading + "\n//\n// old words\n// more\npackage x\n\nfunc F() {} // # Grading\n"
	got, err := stubdoc.Rewrite([]byte(src), stubdoc.Heading+"\n//\n// new words\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "// Package x is an exercise.\n//\n" + stubdoc.Heading + "\n//\n// new words\npackage x\n\nfunc F() {} // # Grading\n"
	if string(got) != want {
		t.Errorf("Rewrite = %q, want %q", got, want)
	}
	for _, bad := range []string{
		"// Package x.\npackage x\n",
		"// Package x.\n" + stubdoc.Heading + "\n//\nvar y int\n\n// Doc.\npackage x\n",
		"// Package x.\n" + stubdoc.Heading + "\n",
	} {
		if _, err := stubdoc.Rewrite([]byte(bad), stubdoc.Heading+"\n"); err == nil {
			t.Errorf("Rewrite(%q) gave no error", bad)
		}
	}
}
