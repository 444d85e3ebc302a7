// Command write rewrites, in the module it runs in, the lists of
// exercises kept outside the catalogue (CONTRIBUTING.md's table, the
// README's weeks, GitHub Classroom's workflow): see package courselists.
// make generate runs it.
package main

import (
	"fmt"
	"os"

	"ratelab/internal/courselists"
)

func main() {
	written, err := courselists.Write(".")
	for _, f := range written {
		fmt.Println("courselists: wrote", f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "courselists:", err)
		os.Exit(1)
	}
}
