package console

import (
	"fmt"
	"io"
	"strings"

	"ratelab/grader"
	"ratelab/grader/report"
)

// Printer writes progress and reports to W.
type Printer struct {
	W     io.Writer
	Color bool
	// shown is, by exercise, each check's progress line as last printed:
	// the grader reports a check again when judging the exercise changes
	// its result, and a line that reads the same is not printed twice.
	shown map[string]map[string]string
}

func (p Printer) paint(code, s string) string {
	if !p.Color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p Printer) status(s report.Status) string {
	switch s {
	case report.Passed:
		return p.paint("32", "pass")
	case report.Failed:
		return p.paint("31", "FAIL")
	case report.Error:
		return p.paint("31;1", "ERROR")
	case report.Timeout:
		return p.paint("35", "TIMEOUT")
	case report.NotStarted:
		return p.paint("33", "not started")
	}
	return p.paint("2", string(s))
}

// padStatus is status s padded to width by the letters that show, not by
// the colour codes around them.
func (p Printer) padStatus(s report.Status, width int) string {
	shown := Printer{}.status(s)
	return p.status(s) + strings.Repeat(" ", max(0, width-len(shown)))
}

// Progress prints one grading event as it happens: a check's line once,
// and again only if it changed (its status or its points, as judged).
func (p *Printer) Progress(e grader.Event) {
	switch e.Phase {
	case grader.PhaseBuild:
		delete(p.shown, e.Exercise) // a new grading of it
		fmt.Fprintf(p.W, "%-14s building\n", e.Exercise)
	case grader.PhaseResult:
		c := e.Result
		extra := ""
		if c.NsPerOp != nil {
			extra = "  " + nsPerOp(*c.NsPerOp, c.BudgetNs) + " ns/op"
		}
		line := fmt.Sprintf("%-14s %s %-32s %s/%s%s\n", e.Exercise, p.padStatus(c.Status, 7), strings.TrimPrefix(c.ID, e.Exercise+"/"), num(c.Score), num(c.MaxScore), extra)
		if p.shown == nil {
			p.shown = map[string]map[string]string{}
		}
		if p.shown[e.Exercise] == nil {
			p.shown[e.Exercise] = map[string]string{}
		}
		if p.shown[e.Exercise][c.ID] == line {
			return
		}
		p.shown[e.Exercise][c.ID] = line
		fmt.Fprint(p.W, line)
	case grader.PhaseExercise:
		s := e.Summary
		if s.Status == report.NotStarted || s.Status == report.Error {
			fmt.Fprintf(p.W, "%-14s %s\n", e.Exercise, p.status(s.Status))
		}
	}
}

// Report prints the table of points and the details of every check that
// did not pass.
func (p Printer) Report(r *report.Report) {
	w := p.W
	fmt.Fprintf(w, "\n%s  (target %s/, seed %d)\n\n", p.paint("1", "ratelab grade"), r.Target, r.Seed)
	// The exercise column is as wide as its longest title; the status
	// column is padded by what shows, not by the colour codes around it.
	width := len("exercise")
	for _, e := range r.Exercises {
		width = max(width, len(e.Title+" ("+e.ID+")"))
	}
	row := func(week, exercise, status, points string) {
		fmt.Fprintf(w, "  %-4s  %-*s  %s  %s\n", week, width, exercise, status, points)
	}
	row("week", "exercise", fmt.Sprintf("%-12s", "status"), "points")
	for _, e := range r.Exercises {
		row(fmt.Sprint(e.Week), e.Title+" ("+e.ID+")", p.padStatus(e.Status, 12), num(e.Score)+"/"+num(e.MaxScore))
	}
	row("", "total", fmt.Sprintf("%12s", ""), p.paint("1", num(r.Score)+"/"+num(r.MaxScore)))

	for _, e := range r.Exercises {
		switch e.Status {
		case report.NotStarted:
			fmt.Fprintf(w, "\n%s: %s\n  %s\n", e.ID, p.status(e.Status), e.Message)
			continue
		case report.Error:
			if e.Message != "" {
				fmt.Fprintf(w, "\n%s: %s\n%s\n", e.ID, p.status(e.Status), indent(e.Message, "  "))
				continue
			}
		}
		for _, c := range e.Checks {
			p.check(c, r.Seed)
		}
	}
	p.benchmarks(r)
}

// Check prints what the report says of one check that did not pass: its
// title, pitfall and points, the message, the counterexample to replay
// with seed, and the hint. A skipped check gets one line saying why (its
// points are missing from the total); a check that passed, nothing, or,
// if its failure is charged under another pitfall, one line saying where.
func (p Printer) Check(c report.Check, seed int64) { p.check(c, seed) }

func (p Printer) check(c report.Check, seed int64) {
	w := p.W
	switch c.Status {
	case report.Passed:
		// A failure found here that is charged under another pitfall is
		// shown where it is charged; here, one line says so.
		if c.Counterexample != nil {
			fmt.Fprintf(w, "\n%s %s: %s\n", p.status(c.Status), p.paint("1", c.ID), c.Message)
		}
		return
	case report.Skipped:
		fmt.Fprintf(w, "\n%s %s (%s points not earned): %s\n", p.status(c.Status), p.paint("1", c.ID), num(c.MaxScore-c.Score), c.Message)
		return
	}
	fmt.Fprintf(w, "\n%s %s — %s\n", p.status(c.Status), p.paint("1", c.ID), c.Title)
	mistake := ""
	switch {
	case len(c.Mistakes) > 0:
		mistake = "   mistake: " + strings.Join(c.Mistakes, ", ")
	case c.Diagnosis == report.Unnamed:
		mistake = "   mistake: unnamed"
	}
	fmt.Fprintf(w, "  pitfall: %s   points: %s/%s%s\n", c.Pitfall, num(c.Score), num(c.MaxScore), mistake)
	if c.Message != "" {
		fmt.Fprintf(w, "%s\n", indent(c.Message, "  "))
	}
	if ce := c.Counterexample; ce != nil {
		fmt.Fprintf(w, "  replay it (seed %d):\n    %s\n", seed, ce.Setup)
		width := 0
		for _, s := range ce.Steps {
			width = max(width, len(s.Call))
		}
		for i, s := range ce.Steps {
			line := fmt.Sprintf("    %2d. %-*s  got %-8s want %s", i+1, width, s.Call, s.Got, s.Want)
			if s.Got != s.Want {
				line = p.paint("31", line+"   <- differs")
			}
			fmt.Fprintln(w, line)
		}
	}
	if c.Hint != "" {
		fmt.Fprintf(w, "  %s %s\n", p.paint("36", "hint:"), c.Hint)
	}
}

func (p Printer) benchmarks(r *report.Report) {
	var lines []string
	for _, e := range r.Exercises {
		for _, c := range e.Checks {
			if c.Kind != report.Benchmark || c.NsPerOp == nil {
				continue
			}
			ref := ""
			if c.RefNsPerOp != nil {
				ref = fmt.Sprintf("   reference %.1f ns/op", *c.RefNsPerOp)
			}
			lines = append(lines, fmt.Sprintf("  %-26s %7s ns/op  %6s allocs/op  budget %.0f ns%s  %s", c.ID, nsPerOp(*c.NsPerOp, c.BudgetNs), allocsPerOp(*c.AllocsPerOp), *c.BudgetNs, ref, p.status(c.Status)))
			for _, s := range c.AllocationSites {
				lines = append(lines, siteLine(s))
			}
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(p.W, "\nbenchmarks (the fastest of at least 5 runs each, on this machine):\n%s\n", strings.Join(lines, "\n"))
	}
}

// siteLine is the line under a benchmark's figures naming one of its
// allocation sites: "    tokenbucket.go:52   1.0 allocs/op  new object",
// the rate in the figures' column.
func siteLine(s report.AllocSite) string {
	line := fmt.Sprintf("    %-24s %*s  %6s allocs/op", fmt.Sprintf("%s:%d", s.File, s.Line), len(" 1234.5 ns/op"), "", allocsPerOp(s.PerCall))
	if s.Kind != "" {
		line += "  " + s.Kind
	}
	return line
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

// num prints points without a needless fraction: 5, 2.5.
func num(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}

// allocsPerOp writes an allocation rate (a fraction: 0.5 is one every
// second call) with the digits that tell it from 0: "0", "1.0", "0.5",
// "0.001".
func allocsPerOp(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v >= 1:
		return fmt.Sprintf("%.1f", v)
	}
	return report.Figure(v, report.MaxAllocsPerOp, 'g', 2)
}

// nsPerOp writes a time per call to a tenth of a nanosecond, or with more
// digits where a tenth would put it on the other side of its budget
// (report.Figure).
func nsPerOp(ns float64, budget *float64) string {
	if budget == nil {
		return fmt.Sprintf("%.1f", ns)
	}
	return report.Figure(ns, *budget, 'f', 1)
}
