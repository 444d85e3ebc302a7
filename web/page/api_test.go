package page

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/internal/apigen"
	"ratelab/lab/course"
)

// apiGenFile is the generated file, relative to this package's folder.
const apiGenFile = "api_gen.go"

// TestExerciseAPI fails when api_gen.go is not what the stubs in
// exercises/ generate today (go generate ./web/page rewrites it; see api.go).
func TestExerciseAPI(t *testing.T) {
	want, err := apigen.Generate(filepath.Join("..", "..", "exercises"), course.Exercises())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(apiGenFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what the stubs in exercises/ generate: run `go generate ./web/page` and commit it.\n%s",
			apiGenFile, firstDifference(got, want))
	}
}

// firstDifference describes the first line where got and want differ.
func firstDifference(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d = %q; want %q", i+1, gl, wl)
		}
	}
	return "same lines"
}
