//go:build !js

package main

import (
	"fmt"
	"os"
)

// main explains how to build the command: it is only useful in a browser.
func main() {
	_ = yours // the learner's code must compile natively too
	_ = yoursAdaptive
	fmt.Fprintln(os.Stderr, "wasm: build with GOOS=js GOARCH=wasm go build -o lab.wasm ./wasm")
	os.Exit(2)
}
