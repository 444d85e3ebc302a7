// Command write writes api_gen.go, in the folder it runs in (go generate
// runs it in web/page), from the stubs in the module's exercises/: see
// package apigen.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"ratelab/internal/apigen"
	"ratelab/lab/course"
)

func main() {
	src, err := apigen.Generate(filepath.Join("..", "..", "exercises"), course.Exercises())
	if err == nil {
		err = os.WriteFile("api_gen.go", src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "apigen:", err)
		os.Exit(1)
	}
}
