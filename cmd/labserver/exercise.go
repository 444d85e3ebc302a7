package main

import (
	"flag"
	"fmt"
	"os"

	"ratelab/internal/coursecheck"
	"ratelab/lab/course"
)

// runExercise is labserver exercise check: what the course catalogue's
// exercises lack (package coursecheck). It is the course authors' tool,
// the checklist CONTRIBUTING.md's "Adding an exercise" follows.
func runExercise(args []string) error {
	fs := flag.NewFlagSet("exercise", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: labserver exercise check

Checks every exercise of the course catalogue (lab/course) against its
files: its stub and its reference with the stub's API, a grader suite and
its adapter, fixtures (a known-buggy one failing each pitfall, two correct ones), an
error model for each pitfall, a replay entry, a lesson with its task text;
and that the lists of exercises make generate writes (CONTRIBUTING.md's
table, the README's weeks, the classroom workflow) are up to date. Prints
what is missing, one line each.
Exit status: 0 nothing is missing, 1 something is, 2 could not check.`)
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() != 1 || fs.Arg(0) != "check" {
		fs.Usage()
		return exitError{2}
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	problems := coursecheck.Check(root)
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "%d things missing: see CONTRIBUTING.md, \"Adding an exercise\"\n", len(problems))
		return exitError{1}
	}
	fmt.Printf("the course is whole: %d exercises, each with every piece\n", len(course.Exercises()))
	return nil
}
