package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	// The time zones' database in the binary: --tz Europe/Paris works
	// where the system has none (Windows), about 450 KB.
	_ "time/tzdata"

	"ratelab/internal/due"
	"ratelab/internal/store"
)

// courseUsage is runCourse's usage.
const courseUsage = `usage: labserver course due    [--db PATH|URL] (--week N | --exercise NAME) --at TIME [--tz ZONE] [--late accept|penalty|refuse] [--penalty PCT] [--cutoff TIME]
       labserver course due    [--db PATH|URL] (--week N | --exercise NAME) --clear
       labserver course extend [--db PATH|URL] --learner NAME (--week N | --exercise NAME) --until TIME
       labserver course extend [--db PATH|URL] --learner NAME (--week N | --exercise NAME) --clear
       labserver course show   [--db PATH|URL]

Due dates of a class (see "Due dates" in docs/instructors.md). TIME is local to the course's time zone,
2027-02-10T23:59, or has its own offset, 2027-02-10T23:59:00+01:00; --tz sets the course's
zone (an IANA name, e.g. Europe/Paris; UTC until set). An exercise's own due date overrides its
week's. Each change prints the submissions whose on-time mark it changed.`

// runCourse is `labserver course due|extend|show`.
func runCourse(args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, courseUsage)
		return exitError{2}
	}
	switch args[0] {
	case "due":
		return runCourseDue(args[1:])
	case "extend":
		return runCourseExtend(args[1:])
	case "show":
		return runCourseShow(args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(os.Stderr, courseUsage)
		return nil
	}
	fmt.Fprintf(os.Stderr, "labserver course: unknown subcommand %q\n\n%s\n", args[0], courseUsage)
	return exitError{2}
}

// targetFlags are --week and --exercise.
func targetFlags(fs *flag.FlagSet) (*int, *string) {
	return fs.Int("week", 0, "the `week` whose exercises (those without their own) it is for"),
		fs.String("exercise", "", "the `exercise` it is for (overrides its week's)")
}

func courseFlags(name string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("course "+name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), courseUsage+"\n\nflags of "+name+":")
		fs.PrintDefaults()
	}
	return fs, fs.String("db", dbDefault(), dbUsage)
}

func runCourseDue(args []string) error {
	fs, db := courseFlags("due")
	week, exercise := targetFlags(fs)
	at := fs.String("at", "", "the due date, e.g. 2027-02-10T23:59 (in --tz, or the course's zone)")
	tz := fs.String("tz", "", "the course's time `zone` (IANA name, e.g. Europe/Paris): sets it, and reads --at and --cutoff in it")
	late := fs.String("late", "accept", "late `policy`: accept (marked late), penalty (minus --penalty per day until --cutoff) or refuse")
	penalty := fs.Float64("penalty", 0, "penalty: `percent` taken off per day late or part of one")
	cutoff := fs.String("cutoff", "", "penalty: late work is refused after this `time`; none if unset")
	clear := fs.Bool("clear", false, "remove the due date instead")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected %q: every value is a flag (see --help)", fs.Arg(0))
	}
	return withClassStore(*db, func(ctx context.Context, st *store.Store) error {
		if *clear {
			c, err := due.Clear(ctx, st, *week, *exercise)
			if err != nil {
				return err
			}
			return printChange(ctx, st, os.Stdout, c)
		}
		if *at == "" {
			return errors.New("give the due date: --at 2027-02-10T23:59 (or --clear to remove it)")
		}
		loc, err := courseZone(ctx, st, *tz)
		if err != nil {
			return err
		}
		r := due.Rule{Week: *week, Exercise: *exercise, PenaltyPct: *penalty}
		if r.Policy, err = due.ParsePolicy(*late); err != nil {
			return err
		}
		if r.At, err = due.ParseTime(*at, loc); err != nil {
			return fmt.Errorf("--at: %w", err)
		}
		if *cutoff != "" {
			if r.Cutoff, err = due.ParseTime(*cutoff, loc); err != nil {
				return fmt.Errorf("--cutoff: %w", err)
			}
		}
		if err := r.Check(); err != nil { // before the zone is saved: a refused rule changes nothing
			return err
		}
		if *tz != "" {
			if err := st.SetCourseZone(ctx, loc.String()); err != nil {
				return err
			}
		}
		c, err := due.Set(ctx, st, r)
		if err != nil {
			return err
		}
		return printChange(ctx, st, os.Stdout, c)
	})
}

func runCourseExtend(args []string) error {
	fs, db := courseFlags("extend")
	week, exercise := targetFlags(fs)
	learner := fs.String("learner", "", "the learner's `name`, as on the roster")
	until := fs.String("until", "", "the learner's new due date, e.g. 2027-02-12T23:59 (in the course's zone)")
	clear := fs.Bool("clear", false, "take the extension back instead")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected %q: every value is a flag (see --help)", fs.Arg(0))
	}
	if *learner == "" {
		return errors.New("say whose: --learner NAME")
	}
	return withClassStore(*db, func(ctx context.Context, st *store.Store) error {
		if *clear {
			c, err := due.Unextend(ctx, st, *learner, *week, *exercise)
			if err != nil {
				return err
			}
			return printChange(ctx, st, os.Stdout, c)
		}
		if *until == "" {
			return errors.New("give the new due date: --until 2027-02-12T23:59 (or --clear to take it back)")
		}
		loc, err := courseZone(ctx, st, "")
		if err != nil {
			return err
		}
		t, err := due.ParseTime(*until, loc)
		if err != nil {
			return fmt.Errorf("--until: %w", err)
		}
		c, err := due.Extend(ctx, st, *learner, *week, *exercise, t)
		if err != nil {
			return err
		}
		return printChange(ctx, st, os.Stdout, c)
	})
}

func runCourseShow(args []string) error {
	fs, db := courseFlags("show")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	return withClassStore(*db, func(ctx context.Context, st *store.Store) error {
		s, err := due.Load(ctx, st)
		if err != nil {
			return err
		}
		changes, err := st.DueChanges(ctx, 10)
		if err != nil {
			return err
		}
		return showCourse(os.Stdout, s, changes)
	})
}

// showCourse prints the due dates, extensions and latest changes.
func showCourse(w io.Writer, s *due.Schedule, changes []store.DueChange) error {
	fmt.Fprintf(w, "Time zone: %s\n\n", s.Zone)
	if s.Empty() {
		fmt.Fprintln(w, "No due date is set: every submission is on time.")
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "FOR\tDUE\tLATE WORK")
		for _, d := range s.Dates {
			dl := due.Deadline{Due: d.At, Policy: due.Policy(d.Policy), PenaltyPct: d.PenaltyPct, Cutoff: d.Cutoff}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", due.Name(d.Week, d.Exercise), d.At.In(s.Zone).Format(due.Layout), dl.PolicyWords(s.Zone))
		}
		tw.Flush()
	}
	if len(s.Extensions) > 0 {
		fmt.Fprintln(w, "\nExtensions:")
		for _, e := range s.Extensions {
			fmt.Fprintf(w, "  %s: %s until %s\n", e.Learner, due.Name(e.Week, e.Exercise), e.Until.In(s.Zone).Format(due.Layout))
		}
	}
	if len(changes) > 0 {
		fmt.Fprintln(w, "\nLatest changes, newest first:")
		for _, c := range changes {
			writeChange(w, c, s.Zone, "  ")
		}
	}
	return nil
}

// printChange prints a change just made, with the submissions it
// re-marked, in the course's zone.
func printChange(ctx context.Context, st *store.Store, w io.Writer, c store.DueChange) error {
	loc, err := courseZone(ctx, st, "")
	if err != nil {
		return err
	}
	writeChange(w, c, loc, "")
	return nil
}

func writeChange(w io.Writer, c store.DueChange, loc *time.Location, indent string) {
	fmt.Fprintf(w, "%s%s: %s\n", indent, c.At.In(loc).Format(due.Layout), c.What)
	if len(c.Remarked) == 0 {
		fmt.Fprintf(w, "%s  no submission's on-time mark changed\n", indent)
	}
	for _, r := range c.Remarked {
		mark := "now late (was on time)"
		if r.OnTime {
			mark = "now on time (was late)"
		}
		fmt.Fprintf(w, "%s  re-marked: %s's %s (submission %d) %s\n", indent, r.Learner, r.Exercise, r.Submission, mark)
	}
}

// courseZone is the zone named (checked), or the course's.
func courseZone(ctx context.Context, st *store.Store, name string) (*time.Location, error) {
	if name == "" {
		var err error
		if name, err = st.CourseZone(ctx); err != nil {
			return nil, err
		}
	}
	return due.Zone(name)
}
