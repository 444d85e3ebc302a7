package grader_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/grader"
	"ratelab/grader/report"
)

// A compile error of a replacement (a learner's upload, in a temporary
// folder of the server's) names the learner's file, not the folder.
func TestBuildErrorsNameTheLearnersFile(t *testing.T) {
	dir := t.TempDir()
	srcs, _ := filepath.Glob("testdata/fixtures/tokenbucket/nocompile/*.go")
	for _, p := range srcs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := grader.Grade(context.Background(), grader.Options{
		Root: root(t), Exercises: []string{"tokenbucket"}, Replace: map[string]string{"tokenbucket": dir}, Seed: grader.DefaultSeed,
	})
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Find("tokenbucket")
	if tb.Status != report.Error || strings.Contains(tb.Message, dir) || !strings.Contains(tb.Message, "\ntokenbucket.go:7:") {
		t.Errorf("tokenbucket: %s %q; want tokenbucket.go:7: without %s", tb.Status, tb.Message, dir)
	}
}
