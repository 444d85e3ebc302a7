// Command gradebench measures gradings of the reference solutions, for
// make bench: for each exercise, and for all of them at once, the calls of
// the learner's code the grader made, the round trips to the grading
// program they took, and the grading's time on the clock and in CPU time
// (the grader's and its children's: the build, the grading program), as
// the minimum, median and maximum of several runs, with the machine's load
// average beside them. It measures; it judges nothing.
//
// Usage:
//
//	go run ./cmd/gradebench [-runs 5] [-bench] [-exercise gcra]...
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
)

func main() {
	runs := flag.Int("runs", 5, "gradings of each exercise measured")
	bench := flag.Bool("bench", false, "measure a grading of every exercise with its benchmark checks too, after the others")
	var exercises []string
	flag.Func("exercise", "measure only this `id` (repeatable: those together); default each, then all together", func(v string) error {
		exercises = append(exercises, v)
		return nil
	})
	replace := flag.String("replace", "", "grade the code in this `folder` in place of the one -exercise's reference (a fixture, a learner's code)")
	cpuProfile := flag.String("cpuprofile", "", "write the grader's CPU profile of every run to this `file`")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gradebench:", err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gradebench:", err)
		os.Exit(2)
	}
	if *replace != "" && len(exercises) != 1 {
		fmt.Fprintln(os.Stderr, "gradebench: -replace needs exactly one -exercise")
		os.Exit(2)
	}
	// A row is a grading measured: of the exercises named (all if none),
	// with their benchmark checks or without.
	type row struct {
		name  string
		ids   []string
		bench bool
	}
	var rows []row
	if len(exercises) > 0 {
		rows = append(rows, row{strings.Join(exercises, ","), exercises, false})
	} else {
		for _, e := range grader.Gradable() {
			rows = append(rows, row{e.ID, []string{e.ID}, false})
		}
		rows = append(rows, row{"all", nil, false}) // as labserver grade --no-bench does
	}
	if *bench {
		last := rows[len(rows)-1]
		rows = append(rows, row{last.name + " +bench", last.ids, true})
	}
	target := "solutions/"
	if *replace != "" {
		target = *replace
	}
	fmt.Printf("gradings of %s (seed %d), %d runs each: min/median/max\n", target, grader.DefaultSeed, *runs)
	fmt.Println("calls: of the code graded, made by the grader's replays; ahead: of them, those sent ahead; trips: round trips to the grading program")
	fmt.Println("checks: seconds on the clock from the first check to the last; wall: the whole grading, build included")
	fmt.Println("CPU seconds: the grader's own, the grading programs', and everything (the build's too); load: the machine's 1-minute load average after each run")
	fmt.Printf("%-20s %7s %7s %6s  %-17s %-17s %-17s %-17s %-17s %s\n", "exercise", "calls", "ahead", "trips", "checks s", "wall s", "grader CPU s", "child CPU s", "all CPU s", "load")
	for _, r := range rows {
		var m measures
		var counts grader.Counts
		for range *runs {
			counts.Reset()
			got, err := measure(root, r.ids, *replace, !r.bench, &counts)
			if err != nil {
				fmt.Fprintln(os.Stderr, "gradebench:", err)
				pprof.StopCPUProfile()
				os.Exit(2)
			}
			m.add(got)
		}
		fmt.Printf("%-20s %7d %7d %6d  %-17s %-17s %-17s %-17s %-17s %s\n", r.name, counts.Calls(), counts.Ahead(), counts.RoundTrips(),
			spread(m.checks), spread(m.wall), spread(m.grader), spread(m.child), spread(m.cpu), spread(m.load))
	}
}

// run is what one grading measured.
type run struct {
	checks, wall time.Duration
	// grader is the grader's own CPU time, child the grading programs',
	// cpu all of it with the build's (0 where the OS does not tell).
	grader, child, cpu time.Duration
	load               float64 // the 1-minute load average after it, or -1
}

type measures struct {
	checks, wall, grader, child, cpu, load []float64
}

func (m *measures) add(r run) {
	m.checks = append(m.checks, r.checks.Seconds())
	m.wall = append(m.wall, r.wall.Seconds())
	if r.cpu > 0 {
		m.grader = append(m.grader, r.grader.Seconds())
		m.child = append(m.child, r.child.Seconds())
		m.cpu = append(m.cpu, r.cpu.Seconds())
	}
	if r.load >= 0 {
		m.load = append(m.load, r.load)
	}
}

// spread writes the minimum, median and maximum of xs.
func spread(xs []float64) string {
	if len(xs) == 0 {
		return "-"
	}
	s := slices.Sorted(slices.Values(xs))
	return fmt.Sprintf("%.2f/%.2f/%.2f", s[0], s[len(s)/2], s[len(s)-1])
}

// measure grades ids of solutions/ (every exercise if none) once, or
// the code in replace in place of the one exercise of ids.
func measure(root string, ids []string, replace string, noBench bool, counts *grader.Counts) (run, error) {
	var firstCheck, done time.Time
	progress := func(e grader.Event) {
		now := time.Now()
		if e.Phase == grader.PhaseStart && firstCheck.IsZero() {
			firstCheck = now
		}
		if e.Phase == grader.PhaseExercise {
			done = now
		}
	}
	self0, all0, cpuOK := cpuTime()
	start := time.Now()
	opts := grader.Options{
		Root: root, Target: "solutions", Exercises: ids, Seed: grader.DefaultSeed, NoBench: noBench,
		Progress: progress, Counts: counts,
	}
	if replace != "" {
		opts.Target, opts.Replace = "exercises", map[string]string{ids[0]: replace}
	}
	r, err := grader.Grade(context.Background(), opts)
	wall := time.Since(start)
	if err != nil {
		return run{}, err
	}
	for _, ex := range r.Exercises {
		if replace != "" {
			break // graded as it is
		}
		for _, c := range ex.Checks {
			if c.Status != report.Passed && c.Status != report.Skipped {
				return run{}, fmt.Errorf("%s of solutions/ is %s: the figures would not be a reference's", c.ID, c.Status)
			}
		}
	}
	out := run{wall: wall, load: loadAverage()}
	if !firstCheck.IsZero() {
		out.checks = done.Sub(firstCheck)
	}
	if self1, all1, ok := cpuTime(); ok && cpuOK {
		out.grader, out.child, out.cpu = self1-self0, counts.ChildCPU(), all1-all0
	}
	return out, nil
}

// moduleRoot finds the folder holding go.mod, from the working folder up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod here or above: run it inside the ratelab module")
		}
		dir = parent
	}
}
