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
	if _, err := weekbuild.BuildAll(context.Background(), root, os.Args[1], os.Stdout); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "weekbuild:", err)
	os.Exit(1)
}
