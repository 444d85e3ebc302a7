// Command write writes each suite's reference adapter,
// suite/<id>/reference_gen.go, in the folder it runs in (go generate runs
// it in grader), from adapter/<id>/adapter.go: see package refgen.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"ratelab/internal/refgen"
)

func main() {
	gen, err := refgen.Generate("adapter", "suite")
	for id, src := range gen {
		if err == nil {
			err = os.WriteFile(filepath.Join("suite", id, refgen.File), src, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "refgen:", err)
		os.Exit(1)
	}
}
