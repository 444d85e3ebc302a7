// Command program is the mutation hunt's program over one exercise's
// mutant (see package hunt). buildHunt builds it with an overlay that adds,
// beside this file, the exercise's adapter rewritten to set run; built
// alone, it has nothing to hunt.
package main

import (
	"fmt"
	"os"
)

// run runs the hunt; the adapter beside this file sets it in its init.
var run func()

func main() {
	if run == nil {
		fmt.Fprintln(os.Stderr, "program: no adapter sets run: build it with labserver mutate")
		os.Exit(2)
	}
	run()
}
