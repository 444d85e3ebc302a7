//go:build !js

package replay

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"ratelab/grader"
)

var capture = flag.Bool("capture", false, "grade the fixtures of captured and write their reports to testdata/")

// TestCapture grades each captured fixture with the grader (seed 1, no
// benchmarks) and writes its report, when run with -capture:
//
//	go test ./lab/replay -run TestCapture -capture
func TestCapture(t *testing.T) {
	if !*capture {
		t.Skip("run with -capture to grade the fixtures again")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range captured {
		r, err := grader.Grade(context.Background(), grader.Options{
			Root: root, Exercises: []string{f[0]},
			Replace: map[string]string{f[0]: filepath.Join(root, "grader", "testdata", "fixtures", f[0], f[1])},
			Seed:    grader.DefaultSeed, NoBench: true,
		})
		if err != nil {
			t.Fatalf("grading %s/%s: %v", f[0], f[1], err)
		}
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", f[0]+"-"+f[1]+".json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
