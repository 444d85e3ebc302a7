package store

import (
	"strconv"
	"unicode/utf8"

	"ratelab/grader/report"
)

// Limits of a stored result (Bound). A grading of code that panics with 15
// MiB messages in every call must not store 120 MB and make the dashboard
// and the submission's page crawl: every text is cut, with a note saying how
// long it was.
const (
	// MaxText bounds a message, a hint, a counterexample's setup and
	// any other text of a result, in bytes, before its note.
	MaxText = 4 << 10
	// MaxStepText bounds each call, got and want of a counterexample step.
	MaxStepText = 512
	// MaxSteps bounds the steps of one counterexample; the last one kept
	// says how many there were.
	MaxSteps = 40
)

// Bound returns a copy of ex whose texts are cut to the limits above
// (MaxText, MaxStepText, MaxSteps). A cut text ends with
// "… cut: N bytes in all". ex itself is not changed.
func Bound(ex report.Exercise) report.Exercise {
	ex.ID, ex.Title, ex.Message = cut(ex.ID, MaxText), cut(ex.Title, MaxText), cut(ex.Message, MaxText)
	ex.Status = report.Status(cut(string(ex.Status), MaxStepText))
	if ex.Checks != nil {
		checks := make([]report.Check, len(ex.Checks))
		for i, c := range ex.Checks {
			c.ID, c.Title, c.Pitfall = cut(c.ID, MaxText), cut(c.Title, MaxText), cut(c.Pitfall, MaxText)
			c.Status, c.Kind = report.Status(cut(string(c.Status), MaxStepText)), report.Kind(cut(string(c.Kind), MaxStepText))
			c.Message, c.Hint = cut(c.Message, MaxText), cut(c.Hint, MaxText)
			if ce := c.Counterexample; ce != nil {
				b := &report.Counterexample{Setup: cut(ce.Setup, MaxText), SetupCall: boundCall(ce.SetupCall)}
				steps := ce.Steps
				if len(steps) > MaxSteps {
					steps = steps[:MaxSteps-1]
				}
				if ce.Steps != nil {
					b.Steps = make([]report.Step, 0, len(steps)+1)
				}
				for _, s := range steps {
					st := report.Step{Call: cut(s.Call, MaxStepText), Got: cut(s.Got, MaxStepText), Want: cut(s.Want, MaxStepText)}
					if c := boundCall(&report.Call{Name: s.Name, Args: s.Args}); c != nil {
						st.Name, st.Args = c.Name, c.Args
					}
					b.Steps = append(b.Steps, st)
				}
				if len(ce.Steps) > MaxSteps {
					b.Steps = append(b.Steps, report.Step{Call: "… cut: " + strconv.Itoa(len(ce.Steps)) + " steps in all"})
				}
				c.Counterexample = b
			}
			checks[i] = c
		}
		ex.Checks = checks
	}
	return ex
}

// cut returns s if it has at most max bytes, or its first max bytes (on a
// character boundary) and a note of its length.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "\n… cut: " + strconv.Itoa(len(s)) + " bytes in all"
}

// MaxCallArgs bounds the arguments of a counterexample's call kept as
// data (report.Call), for Replay.
const MaxCallArgs = 16

// boundCall returns the call as data that Replay reads (report.Call),
// kept only while it is what the grader writes: a short name, a few
// arguments, each a string of at most MaxStepText bytes, a number or a
// boolean. Anything else keeps no call (a call cut short would replay
// another): the step reads as text, and is not replayed. Nil stays nil.
func boundCall(c *report.Call) *report.Call {
	if c == nil || c.Name == "" || len(c.Name) > MaxStepText || len(c.Args) > MaxCallArgs {
		return nil
	}
	out := &report.Call{Name: c.Name}
	if c.Args != nil {
		out.Args = make(map[string]any, len(c.Args))
	}
	for k, v := range c.Args {
		if len(k) > MaxStepText {
			return nil
		}
		switch v := v.(type) {
		case string:
			if len(v) > MaxStepText {
				return nil
			}
			out.Args[k] = v
		case float64, bool, int, int64, uint64:
			out.Args[k] = v
		default:
			return nil
		}
	}
	return out
}
