// Command labserver is ratelab's one binary: it grades exercises, serves the
// lab in the browser, and runs a class.
//
//	labserver grade [flags]   grade exercises/ (see grade --help)
//	labserver serve [flags]   serve the lab at http://localhost:8080
//	labserver serve --class   serve a class: submissions graded in a sandbox
//	labserver roster import   create learners, print their tokens
//	labserver roster remove   take a learner off the roster
//	labserver instructor add  create an instructor
//	labserver course due      set due dates, extensions (course due|extend|show)
//	labserver worker --db URL grade a Postgres class's submissions on this machine
//	labserver migrate         bring a class's database to this version's schema
//	labserver lti             register learning platforms (LTI 1.3)
//	labserver submit [flags]  submit exercises to a class server
//	labserver mutate          the suites' mutation score (course authors)
//	labserver exercise check  what the course's exercises lack (course authors)
//	labserver exercise new    add an exercise, as a copy of another (course authors)
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
)

// exitError carries a process exit status through a command's error return.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

type command struct {
	name, summary string
	run           func(args []string) error
}

func commands() []command {
	return []command{
		{"grade", "grade the exercises (or the solutions) and print a report", runGrade},
		{"serve", "serve the lab in the browser (--class: a class server)", runServe},
		{"roster", "roster import FILE: create learners, print their tokens; roster remove NAME: take one off", runRoster},
		{"instructor", "instructor add NAME: create an instructor (password on stdin)", runInstructor},
		{"course", "course due|extend|show: a class's due dates, late policies and extensions", runCourse},
		{"submit", "upload your exercises to the class server and follow the grading", runSubmit},
		{"worker", "worker --db postgres://…: grade a class's submissions on this machine", runWorker},
		{"migrate", "migrate --db PATH|URL: bring a class's database to this version's schema", runMigrate},
		{"lti", "lti add-platform|config|list|rotate-key: put the class in Canvas, Moodle (LTI 1.3)", runLTI},
		{"mutate", "the suites' mutation score: grade mutants of solutions/ (course authors)", runMutate},
		{"exercise", "exercise check: what the course's exercises lack, file by file; exercise new NAME: add one (course authors)", runExercise},
	}
}

func main() {
	// A grading makes many short-lived values (scripts, traces, encoded
	// calls): with the collector at 200% of the live heap, not Go's 100%,
	// it takes about a fifth less CPU for a few MB more. GOGC, if set,
	// decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if len(os.Args) < 2 || os.Args[1] == "help" || os.Args[1] == "-h" || os.Args[1] == "--help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	for _, c := range commands() {
		if c.name == os.Args[1] {
			err := c.run(os.Args[2:])
			var ee exitError
			switch {
			case errors.As(err, &ee):
				os.Exit(ee.code)
			case err != nil:
				fmt.Fprintln(os.Stderr, "labserver "+c.name+":", err)
				os.Exit(2)
			}
			return
		}
	}
	fmt.Fprintf(os.Stderr, "labserver: unknown command %q\n\n", os.Args[1])
	usage()
	os.Exit(2)
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: labserver <command> [flags]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(os.Stderr, "\nRun 'labserver <command> --help' for a command's flags.")
}

// parseFlags parses args with fs and turns --help and bad flags into the
// command's return value (done true: return err).
func parseFlags(fs *flag.FlagSet, args []string) (done bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return true, exitError{2}
	}
	return false, nil
}
