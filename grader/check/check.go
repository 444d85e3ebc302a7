package check

import (
	"fmt"
	"slices"
	"strings"

	"ratelab/grader/report"
)

// Check is one graded check. Run must be deterministic for a given seed.
type Check struct {
	ID      string // "<exercise>/<name>", e.g. "tokenbucket/overflow"
	Title   string // what a passing implementation does, e.g. "Survives a day of idle"
	Kind    report.Kind
	Pitfall string  // the one mistake it exists to catch (the pitfall names in CONTRIBUTING.md's "How grading works")
	Points  float64 // awarded all or nothing
	Hint    string  // how to think about the fix, shown when it fails
	Run     func(seed int64) Outcome
	// Own marks a check judged by its own table of single calls (an
	// argument or config validation, Parts.Fixed): a mistake found by
	// other checks never costs its points (see Suite.Judge).
	Own bool
}

// Outcome is what running a check found.
type Outcome struct {
	Status         report.Status // Passed, Failed, Error or Skipped
	Message        string
	Counterexample *report.Counterexample
	Bench          *BenchFigures
	// Findings are the failures the check found (the first is the one
	// above), when its suite has error models: Suite.Judge reads them.
	Findings []Finding
	// Passing counts the generated scripts a property's code answered
	// right (see Suite.Judge).
	Passing int
	// Diagnosis and Mistakes are what Suite.Judge found the check's
	// counterexample to show (see report.Check).
	Diagnosis report.Diagnosis
	Mistakes  []string
}

// Pass is the outcome of a check that found nothing wrong.
func Pass() Outcome { return Outcome{Status: report.Passed} }

// Result turns the outcome of c into the report's form, awarding the points
// only when it passed.
func (c Check) Result(o Outcome) report.Check {
	r := report.Check{
		ID: c.ID, Title: c.Title, Kind: c.Kind, Pitfall: c.Pitfall,
		Status: o.Status, MaxScore: c.Points, Message: o.Message,
		Counterexample: o.Counterexample, Diagnosis: o.Diagnosis, Mistakes: o.Mistakes,
	}
	if o.Status == report.Passed {
		r.Score = c.Points
	}
	if o.Status == report.Failed || o.Status == report.Error || o.Status == report.Timeout && o.Counterexample != nil {
		// A timeout with a counterexample is a call that did not return,
		// charged to this check's pitfall (see Hang); one without is the
		// check's deadline, which says nothing of what the check is about.
		r.Hint = c.Hint
	}
	if b := o.Bench; b != nil {
		r.NsPerOp, r.AllocsPerOp, r.BudgetNs = &b.NsPerOp, &b.AllocsPerOp, &b.BudgetNs
		if b.RefNsPerOp > 0 {
			r.RefNsPerOp = &b.RefNsPerOp
		}
		r.AllocationSites = b.Sites
	}
	return r
}

// NotImplemented is the phrase a stub's panic carries. A call that panics
// with it is reported as missing work, not as a crash.
const NotImplemented = "not implemented"

// Panic is a recovered panic from learner code.
type Panic struct{ Value any }

func (p *Panic) Error() string { return fmt.Sprint(p.Value) }

// hang reports whether p is a call that did not return: a Hang, or the
// loss of the learner's process to a timeout (a Remote's panic whose
// value says Timeout, as net.Error does), after which no call returns.
func (p *Panic) hang() bool {
	if p == nil {
		return false
	}
	switch v := p.Value.(type) {
	case Hang:
		return true
	case interface{ Timeout() bool }:
		return v.Timeout()
	}
	return false
}

// Stub reports whether the panic came from an untouched stub.
func (p *Panic) Stub() bool {
	return p != nil && strings.Contains(fmt.Sprint(p.Value), NotImplemented)
}

// Call runs f and returns its result, or the panic it raised.
func Call[T any](f func() T) (v T, p *Panic) {
	defer func() {
		if r := recover(); r != nil {
			p = &Panic{Value: r}
		}
	}()
	return f(), nil
}

// Fail builds a failed outcome for a trace that ended on a mismatch, a
// panic or a call that did not return (a timeout). why explains, in the learner's terms, what the mismatch means for
// this check.
func Fail(t Trace, why string) Outcome {
	ce := &report.Counterexample{Setup: t.Setup, Steps: slices.Clone(t.Steps)}
	if c, ok := CallData(t.Setup); ok {
		ce.SetupCall = &c
	}
	// Each call as data, for programs that replay it (see
	// report.Counterexample).
	for i, s := range ce.Steps {
		if c, ok := CallData(s.Call); ok {
			ce.Steps[i].Name, ce.Steps[i].Args = c.Name, c.Args
		}
	}
	last := report.Step{}
	if n := len(t.Steps); n > 0 {
		last = t.Steps[n-1]
	}
	if t.Hung() {
		return Outcome{Status: report.Timeout, Message: t.Panic.Error(), Counterexample: ce}
	}
	if t.Panic != nil {
		msg := fmt.Sprintf("%s panicked: %v.", last.Call, t.Panic.Value)
		if t.Panic.Stub() {
			msg = fmt.Sprintf("%s is not implemented yet (it panicked: %v).", callName(last.Call), t.Panic.Value)
		}
		if t.Setup != "" && len(t.Steps) == 0 {
			msg = fmt.Sprintf("%s panicked: %v.", t.Setup, t.Panic.Value)
			if t.Panic.Stub() {
				msg = fmt.Sprintf("%s is not implemented yet (it panicked: %v).", callName(t.Setup), t.Panic.Value)
			}
		}
		return Outcome{Status: report.Error, Message: msg, Counterexample: ce}
	}
	return Outcome{
		Status:         report.Failed,
		Message:        fmt.Sprintf("%s = %s; want %s. %s", last.Call, last.Got, last.Want, why),
		Counterexample: ce,
	}
}

// callName returns "TryAcquire" for "TryAcquire(nowNs=1, n=2)".
func callName(call string) string {
	if i := strings.IndexByte(call, '('); i > 0 {
		return call[:i]
	}
	return call
}
