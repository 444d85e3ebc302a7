// Command write rewrites the "# Grading" section of every stub's package
// doc (exercises/<id>) from the grader: see package stubdoc. Run it from
// the module's root (make generate does).
package main

import (
	"fmt"
	"os"

	"ratelab/grader"
	"ratelab/internal/stubdoc"
)

func main() {
	for _, e := range grader.Gradable() {
		changed, err := stubdoc.Write(".", e.ID, grader.Budget(e.ID))
		if err != nil {
			fmt.Fprintln(os.Stderr, "stubdoc:", err)
			os.Exit(1)
		}
		if changed {
			fmt.Printf("stubdoc: rewrote the Grading section of exercises/%s\n", e.ID)
		}
	}
}
