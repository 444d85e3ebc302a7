package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"ratelab/grader"
	"ratelab/grader/console"
	"ratelab/grader/report/gradescope"
	"ratelab/internal/watch"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func runGrade(args []string) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	var exercises listFlag
	fs.Var(&exercises, "exercise", "grade only this exercise (repeatable); default all")
	solutions := fs.Bool("solutions", false, "grade solutions/ instead of exercises/ (the reference must score full marks)")
	asJSON := fs.Bool("json", false, "print the report as JSON (schema ratelab.grade/v1) on stdout, nothing else (the same as --format json)")
	format := fs.String("format", "text", "the report's form on stdout: text, json (schema ratelab.grade/v1) or gradescope (Gradescope's results.json)")
	seed := fs.Int64("seed", grader.DefaultSeed, "the property seed; the same seed gives the same counterexample")
	noBench := fs.Bool("no-bench", false, "skip benchmark checks (they report skipped)")
	watchFlag := fs.Bool("watch", false, "grade again whenever a file under the graded tree changes")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: labserver grade [flags]\n\nGrades exercises/ of this working copy and prints a report.\nExit status: 0 full marks, 1 not full marks, 2 could not grade.\n\nflags:")
		fs.PrintDefaults()
	}
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	switch {
	case *asJSON && *format != "text" && *format != "json":
		return fmt.Errorf("--json and --format %s: choose one", *format)
	case *asJSON:
		*format = "json"
	case *format != "text" && *format != "json" && *format != "gradescope":
		return fmt.Errorf("--format %q: want text, json or gradescope", *format)
	}
	root, err := moduleRoot()
	if err != nil {
		if *format == "gradescope" {
			writeGradescope(gradescope.Failure(err.Error()))
		}
		return err
	}
	opts := grader.Options{Root: root, Target: "exercises", Exercises: exercises, Seed: *seed, NoBench: *noBench}
	if *solutions {
		opts.Target = "solutions"
	}
	progress := console.Printer{W: os.Stderr, Color: isTerminal(os.Stderr)}
	opts.Progress = progress.Progress

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	once := func() (int, error) {
		fmt.Fprintf(os.Stderr, "grading %s/ (seed %d)\n", opts.Target, opts.Seed)
		start := time.Now()
		r, err := grader.Grade(ctx, opts)
		if err != nil {
			if *format == "gradescope" {
				// Gradescope shows an empty results.json as nothing at all:
				// say why there is no grade.
				writeGradescope(gradescope.Failure(err.Error()))
			}
			return 2, err
		}
		saveReport(root, r)
		switch *format {
		case "json":
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(r); err != nil {
				return 2, err
			}
		case "gradescope":
			if err := writeGradescope(gradescope.From(r, time.Since(start))); err != nil {
				return 2, err
			}
		default:
			console.Printer{W: os.Stdout, Color: isTerminal(os.Stdout)}.Report(r)
		}
		fmt.Fprintf(os.Stderr, "graded in %.1fs\n", time.Since(start).Seconds())
		return grader.ExitCode(r), nil
	}
	if !*watchFlag {
		code, err := once()
		if err != nil {
			return err
		}
		return exitError{code}
	}
	dir := filepath.Join(root, opts.Target)
	// Watch before the first grading, so that a save during it grades
	// again once it ends.
	changes, err := watch.Tree(ctx, dir)
	if err != nil {
		return fmt.Errorf("watching %s: %w", dir, err)
	}
	for {
		if _, err := once(); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			fmt.Fprintln(os.Stderr, "labserver grade:", err)
		}
		fmt.Fprintf(os.Stderr, "watching %s/ for changes (Ctrl-C to stop)\n", opts.Target)
		ids, ok := <-changes
		if !ok {
			return nil
		}
		fmt.Fprintf(os.Stderr, "changed: %s\n", strings.Join(ids, ", "))
	}
}

// writeGradescope prints Gradescope's results.json on stdout.
func writeGradescope(res gradescope.Results) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// moduleRoot finds the ratelab module this command runs in.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(strings.TrimSpace(string(data)), "module ratelab") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the ratelab repository: run this from your clone (where go.mod says module ratelab)")
		}
		dir = parent
	}
}

func isTerminal(f *os.File) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// saveReport keeps the latest report where the lab's web pages read it.
// Failing to save never fails the grading: the report was printed.
var saveReport = storeReport
