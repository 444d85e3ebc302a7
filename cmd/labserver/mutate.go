package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"ratelab/grader/mutate"
)

// runMutate is labserver mutate: the suites' mutation score (see package
// mutate). It is the course authors' tool; a learner never needs it.
func runMutate(args []string) error {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	var exercises listFlag
	fs.Var(&exercises, "exercise", "mutate only this exercise's reference (repeatable); default all")
	jobs := fs.Int("jobs", 0, "mutants graded or hunted at once; 0: GOMAXPROCS")
	scripts := fs.Int("scripts", 1_000_000, "scripts a hunt replays on each mutant that lives the grading")
	seed := fs.Int64("seed", 1, "the grading's property seed")
	checkTimeout := fs.Duration("check-timeout", 0, "deadline of one check of a grading; 0: the grader's")
	list := fs.String("equivalent", "", "the list of equivalent mutants; default grader/mutate/equivalent.txt")
	only := fs.String("only", "", "only the mutants whose position and operator contain this (\"tokenbucket.go:65:\")")
	full := fs.Bool("full", false, "grade every check of each mutant and say which fail, with their mistakes (slower: a grading otherwise stops at the first failed check)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: labserver mutate [flags]

Mutates each reference in solutions/, grades every mutant (no benchmarks),
hunts each one that lives with a million scripts of its suite, and prints
the mutants that lived, then one line per exercise:
  mutants EXERCISE: killed K, equivalent E, lived L
Exit status: 0 nothing lived and the equivalence list is right, 1 otherwise,
2 could not run.

flags:`)
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if *list == "" {
		*list = filepath.Join(root, "grader", "mutate", "equivalent.txt")
	}
	f, err := os.Open(*list)
	if err != nil {
		return err
	}
	listings, err := mutate.ParseListings(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", *list, err)
	}
	opts := mutate.Options{
		Root: root, Exercises: exercises, Jobs: *jobs, Scripts: *scripts, Seed: *seed,
		CheckTimeout: *checkTimeout, Listings: listings, Only: *only, Full: *full, Log: os.Stderr,
	}
	if *quiet {
		opts.Log = nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	rs, err := mutate.Run(ctx, opts)
	if err != nil {
		return err
	}
	mutate.Write(os.Stdout, rs, time.Since(start))
	for _, r := range rs {
		if !r.Clean() {
			return exitError{1}
		}
	}
	return nil
}
