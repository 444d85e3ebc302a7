// Command write (weekbuild) builds, into the folder it is given, each
// week's WebAssembly (internal/weekbuild), printing each file and its
// size. `make wasm` runs it on web/static, from the module's root, then
// writes the files' compressed copies with internal/precompress/write:
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
		fmt.Fprintln(os.Stderr, "usage: weekbuild DIR\n\nBuilds DIR/week-N.wasm for each week of the course; run it from the module's root.")
		os.Exit(2)
	}
	root, err := os.Getwd()
	if err == nil {
		_, err = os.Stat(filepath.Join(root, "wasm"))
	}
	if err != nil {
		fail(fmt.Errorf("run it from the module's root, where ./wasm is: %w", err))
	}
	for _, week := range weekbuild.Weeks() {
		path, err := weekbuild.Build(context.Background(), root, os.Args[1], week)
		if err != nil {
			fail(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			fail(err)
		}
		fmt.Printf("%s: %d bytes\n", path, fi.Size())
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "weekbuild:", err)
	os.Exit(1)
}
