// Command write (precompress) writes, beside each file it is given, the copies the
// lab server sends in its place to a browser that accepts them: FILE.br
// (Brotli) and FILE.gz (gzip), or only those the -only flag names; a copy
// that already holds the file's content is kept. `make wasm` runs it on
// web/static/lab.wasm:
//
//	go run ./internal/precompress/write web/static/lab.wasm
//	go run ./internal/precompress/write -only gzip web/static/lab.wasm
//
// It prints each copy's size and how long compressing took. See
// internal/precompress.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"ratelab/internal/precompress"
)

func main() {
	only := flag.String("only", "", "write only the copies in these encodings, comma-separated: br, gzip")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: precompress [-only br,gzip] FILE...\n\nWrites FILE.br (Brotli) and FILE.gz (gzip) beside each FILE, unless they already hold its content.")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var encodings []string
	if *only != "" {
		encodings = strings.Split(*only, ",")
	}
	for _, path := range flag.Args() {
		fi, err := os.Stat(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
		copies, err := precompress.Write(path, encodings...)
		if err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
		for _, c := range copies {
			how := fmt.Sprintf("in %.1f s", c.Took.Seconds())
			if c.Kept {
				how = "kept: up to date"
			}
			fmt.Printf("%s: %d bytes, %.1f%% of %d (%s)\n", c.Path, c.Size, 100*float64(c.Size)/float64(fi.Size()), fi.Size(), how)
		}
	}
}
