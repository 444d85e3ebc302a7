package mutate

import (
	"fmt"
	"io"
	"time"

	"ratelab/grader/check"
)

// Write prints rs as labserver mutate does: first every mutant that
// lived, every wrong and every stale listing, each with what is known of
// it; then a line of figures per exercise; then, last, one summary line
// per exercise (Result.Summary), which scripts read. elapsed is the run's
// wall time.
func Write(w io.Writer, rs []Result, elapsed time.Duration) {
	for _, r := range rs {
		if r.Baseline != "" {
			fmt.Fprintf(w, "REFERENCE %s: %s; mutants are judged on the other checks\n", r.Exercise, r.Baseline)
		}
		for _, o := range r.Outcomes {
			switch {
			case o.Verdict == Lived:
				fmt.Fprintf(w, "LIVED %s/%s\n", r.Exercise, o.Mutant)
			case o.Wrong != "":
				fmt.Fprintf(w, "WRONGLY LISTED %s/%s (equivalent.txt:%d)\n", r.Exercise, o.Mutant, o.Listing.Line)
			default:
				continue
			}
			fmt.Fprintf(w, "    %s\n", o.Mutant.Diff())
			for _, line := range o.notes() {
				fmt.Fprintf(w, "    %s\n", line)
			}
		}
		for _, l := range r.Stale {
			fmt.Fprintf(w, "STALE LISTING %s %s %s (equivalent.txt:%d): no such mutant of the reference now\n", l.Exercise, l.Pos, l.Operator, l.Line)
		}
	}
	for _, r := range rs {
		k, l := r.Count(Killed), r.Count(Lived)
		score := "no mutant to kill"
		if k+l > 0 {
			score = fmt.Sprintf("%.1f%% of the non-equivalent killed", 100*float64(k)/float64(k+l))
		}
		var took time.Duration
		for _, o := range r.Outcomes {
			took += o.Elapsed
		}
		fmt.Fprintf(w, "%s: %d mutants, %d stillborn, %s; %s of grading and hunting\n",
			r.Exercise, len(r.Outcomes), r.Count(Stillborn), score, took.Round(time.Second))
	}
	cpu := ""
	if t := cpuTime(); t > 0 {
		cpu = fmt.Sprintf(", %s of CPU time (this program and every build, grading and hunt it ran)", t.Round(time.Second))
	}
	fmt.Fprintf(w, "mutate: %s in all%s\n", elapsed.Round(time.Second), cpu)
	for _, r := range rs {
		fmt.Fprintln(w, r.Summary())
	}
}

// notes says what is known of a mutant that lived or is wrongly listed.
func (o Outcome) notes() []string {
	var out []string
	if o.Wrong != "" {
		out = append(out, o.Wrong+"; the listing says: "+o.Listing.Reason)
	}
	switch h := o.Hunt; {
	case o.HuntErr != "":
		out = append(out, "not hunted: "+firstLine(o.HuntErr))
	case h == nil:
	case h.Hung:
		out = append(out, fmt.Sprintf("a script of %s hangs it (script %d of the hunt): %s", h.Check, h.Script, h.Call))
	case h.Crashed:
		out = append(out, "a script crashes it: "+h.Got)
	case h.Killed:
		out = append(out, fmt.Sprintf("killed by script %d of the hunt (%s), %d calls: %s … %s = %s; want %s",
			h.Script, h.Check, h.Steps, h.Setup, h.Call, h.Got, h.Want),
			"the grading's scripts miss it: a generator that reaches it more often would kill it")
	default:
		out = append(out, fmt.Sprintf("no script of %s differs: equivalent? list it in grader/mutate/equivalent.txt with the reason, or kill it with a generator", check.Count(h.Scripts)))
	}
	if h := o.Hunt; h != nil && h.RefFails > 0 {
		out = append(out, fmt.Sprintf("the reference fails %d of the hunt's scripts that the mutant fails (the suite's model and the reference disagree): %s", h.RefFails, h.RefFailure))
	}
	return out
}
