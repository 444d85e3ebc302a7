// Command write (weekbuild) builds, into the folder it is given, the lab's
// WebAssembly (internal/weekbuild): each week's reference build, each
// week's Yours build and lab.wasm, printing each file and its size. A
// Yours build whose exercises do not compile is built with the reference
// only, and says so. `make wasm` runs it on web/static, from the module's
// root, then writes the files' compressed copies with
// internal/precompress/write:
//
//	go run ./internal/weekbuild/write web/static
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"ratelab/internal/weekbuild"
)

func main() {
	if len(os.Args) != 2 || os.Args[1] == "-h" || os.Args[1] == "--help" {
		fmt.Fprintln(os.Stderr, "usage: weekbuild DIR\n\nBuilds DIR/week-N.wasm and DIR/yours-week-N.wasm for each week of the course, and DIR/lab.wasm; run it from the module's root.")
		os.Exit(2)
	}
	root, err := os.Getwd()
	if err == nil {
		_, err = os.Stat(filepath.Join(root, "wasm"))
	}
	if err != nil {
		fail(fmt.Errorf("run it from the module's root, where ./wasm is: %w", err))
	}
	ctx, dir := context.Background(), os.Args[1]
	for _, week := range weekbuild.Weeks() {
		done(weekbuild.Build(ctx, root, dir, week))
	}
	for _, week := range weekbuild.YoursWeeks() {
		path, err := weekbuild.BuildYours(ctx, root, dir, week)
		if be := (*weekbuild.Error)(nil); errors.As(err, &be) {
			what := fmt.Sprintf("week %d's exercises do not build: its lesson's Yours", week)
			if week == 0 {
				what = "exercises/ does not build: a replay's Yours"
			}
			fmt.Printf("%s will say so (run make grade to see why)\n", what)
			path, err = weekbuild.BuildNoYours(ctx, root, dir, week)
		}
		done(path, err)
	}
}

// done prints the file built and its size, or fails with err.
func done(path string, err error) {
	if err != nil {
		fail(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		fail(err)
	}
	fmt.Printf("%s: %d bytes\n", path, fi.Size())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "weekbuild:", err)
	os.Exit(1)
}
