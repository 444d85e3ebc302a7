package main

import (
	"flag"
	"fmt"
	"os"

	"ratelab/internal/coursecheck"
	"ratelab/internal/scaffold"
	"ratelab/lab/course"
)

// runExercise is the course authors' tool: labserver exercise check, what
// the course catalogue's exercises lack (package coursecheck), the
// checklist CONTRIBUTING.md's "Adding an exercise" follows; and labserver
// exercise new, which adds an exercise to the course (package scaffold).
func runExercise(args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return runExerciseCheck(args[1:])
		case "new":
			return runExerciseNew(args[1:])
		}
	}
	fmt.Fprintln(os.Stderr, `usage: labserver exercise check | new NAME --week N --title TITLE [--from EXERCISE]

check  lists what the course's exercises lack, one line each
new    adds an exercise to the course, starting as a copy of another

See labserver exercise check --help and labserver exercise new --help.`)
	return exitError{2}
}

func runExerciseCheck(args []string) error {
	fs := flag.NewFlagSet("exercise check", flag.ContinueOnError)
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
	if fs.NArg() != 0 {
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

func runExerciseNew(args []string) error {
	fs := flag.NewFlagSet("exercise new", flag.ContinueOnError)
	var s scaffold.Spec
	fs.IntVar(&s.Week, "week", 0, "the week whose lesson introduces it (required)")
	fs.StringVar(&s.Title, "title", "", `its title, e.g. "Leaky bucket" (required)`)
	fs.StringVar(&s.From, "from", "gcra", "the exercise it starts as a copy of: the one whose API and checks are nearest")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: labserver exercise new NAME --week N --title TITLE [--from EXERCISE]

Adds the exercise NAME (its package's name) to the course, as a renamed
copy of another: its stub, reference, grader suite, adapter and fixtures,
each Go file marked TODO, so that it builds and grades at once while you
reshape it. It also adds its catalogue entry, its task in week N's lesson
and its replay entry, the last two marked TODO. Then run make generate,
and labserver exercise check for what is left: at first, the replay
entry (lab/replay/NAME.go), which make test also reports until written.

flags:`)
		fs.PrintDefaults()
	}
	if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
		if done, err := parseFlags(fs, args); done {
			return err
		}
		fs.Usage()
		return exitError{2}
	}
	s.ID = args[0]
	if done, err := parseFlags(fs, args[1:]); done {
		return err
	}
	if fs.NArg() != 0 || s.Week == 0 || s.Title == "" {
		fmt.Fprintln(fs.Output(), "labserver exercise new: give the exercise's NAME, then --week and --title")
		fs.Usage()
		return exitError{2}
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	wrote, err := scaffold.New(root, s)
	for _, w := range wrote {
		fmt.Println("wrote", w)
	}
	if err != nil {
		return err
	}
	fmt.Printf(`
%[1]s is in the course, as a copy of %[2]s. Next:
  1. make generate (the grader's list of suites, the API block, the stub's
     Grading section, the lists of exercises in the docs)
  2. rewrite each piece marked TODO(exercise new): the task in
     exercises/%[1]s, the reference, the suite (its model, checks and
     mistakes), the fixtures (a known-buggy one per pitfall, two correct
     ones), the catalogue's summary, the lesson's task, the replay entry
  3. labserver exercise check, and make test
`, s.ID, s.From)
	return nil
}
