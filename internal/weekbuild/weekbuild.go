// Package weekbuild builds the lessons' WebAssembly: for each week of the
// course, a build of ./wasm with that week's simulations alone and the
// reference only, week-N.wasm. A lesson's page loads its week's build to
// draw the reference; the learner's code ("Yours") runs from lab.wasm,
// the build of every simulation with exercises/ in it, in a worker, once
// the learner asks for it.
//
// A week's build does not hold the learner's code, so no save changes it:
// `make wasm` builds it once, its compressed copies stay valid, and the
// browser keeps it in its cache across the live loop's rebuilds of Yours.
// It is much smaller than lab.wasm: make bench prints the sizes of both.
//
// Which simulations a week has is set by the build constraints of ./wasm's
// files: with the tags oneweek and weekN only week N's parts are built
// (see wasm/doc.go); without oneweek, all of them.
package weekbuild

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"ratelab/lab/course"
)

// Name is the file name of week's build, as served under /static/.
func Name(week int) string { return fmt.Sprintf("week-%d.wasm", week) }

// Tags are the build tags of week's build: the reference only, and week's
// parts of ./wasm only.
func Tags(week int) string { return fmt.Sprintf("noyours,oneweek,week%d", week) }

// Weeks returns the course's week numbers, in order: one build each.
func Weeks() []int {
	var ns []int
	for _, w := range course.Weeks() {
		ns = append(ns, w.Number)
	}
	return ns
}

// Build builds week's build of the module at root into dir/Name(week),
// replacing the file only when the build succeeds. Its error holds the
// compiler's output. The build is linked without the symbol table
// (-ldflags=-s: nothing reads it, and a panic's stack keeps its lines,
// from the runtime's own tables) and compiled as lab.wasm is, so that the
// two share Go's build cache.
func Build(ctx context.Context, root, dir string, week int) (path string, err error) {
	path = filepath.Join(dir, Name(week))
	tmp := path + ".tmp"
	cmd := exec.CommandContext(ctx, "go", "build", "-ldflags=-s", "-tags", Tags(week), "-o", tmp, "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("GOOS=js GOARCH=wasm go build -ldflags=-s -tags %s ./wasm: %v\n%s", Tags(week), err, out.String())
	}
	return path, os.Rename(tmp, path)
}
