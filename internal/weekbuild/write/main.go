// Command write (weekbuild) builds, into the folder it is given, each
// week's WebAssembly (internal/weekbuild) and the compressed copies the
// server sends in its place (internal/precompress), all of them or only
// those the -only flag names. `make wasm` runs it on web/static:
//
//	go run ./internal/weekbuild/write -only gzip web/static
//
// It prints each build's size and each copy's.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"ratelab/internal/precompress"
	"ratelab/internal/weekbuild"
)

func main() {
	only := flag.String("only", "", "write only the copies in these encodings, comma-separated: br, gzip")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: weekbuild [-only br,gzip] DIR\n\nBuilds DIR/week-N.wasm for each week of the course, run from the module's root, and its compressed copies.")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	var encodings []string
	if *only != "" {
		encodings = strings.Split(*only, ",")
	}
	root, err := os.Getwd()
	if err == nil {
		_, err = os.Stat(filepath.Join(root, "wasm"))
	}
	if err != nil {
		fail(fmt.Errorf("run it from the module's root, where ./wasm is: %w", err))
	}
	for _, week := range weekbuild.Weeks() {
		path, err := weekbuild.Build(context.Background(), root, flag.Arg(0), week)
		if err != nil {
			fail(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			fail(err)
		}
		copies, err := precompress.Write(path, encodings...)
		if err != nil {
			fail(err)
		}
		line := fmt.Sprintf("%s: %d bytes", path, fi.Size())
		for _, c := range copies {
			line += fmt.Sprintf("; %s %d", c.Encoding.Name, c.Size)
		}
		fmt.Println(line)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "weekbuild:", err)
	os.Exit(1)
}
