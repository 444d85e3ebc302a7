package check

import (
	"strings"

	"ratelab/grader/report"
)

// Mistake is one way of getting a rule of the contract wrong, as a
// learner writes it: the suite's model with that mistake switched on,
// offered as the exercise's API I, so that the suite's own replay can run
// a script on it exactly as on the learner's code.
//
// A suite lists its mistakes beside its model (Parts.Mistakes), written
// from the contract's rules and pitfalls and the stub's traps, each
// worded (Says) as the sentence of the contract it breaks. A failing
// script is explained by a mistake when the mistake's model gives every
// answer the learner's code gave, up to and including the first call that
// differs from the correct model (see Explains): only then does the
// grader name it.
type Mistake[I any] struct {
	Name    string // e.g. "drops-fraction"; unique in its suite
	Pitfall string // the pitfall it belongs to (the contract's table)
	// Says is what the mistaken model does, as the end of the sentence
	// "your answers on this script are exactly those of a model that
	// ...", e.g. "rounds each refill down to whole tokens and moves its
	// clock anyway".
	Says string
	Impl I // the model with the mistake
}

// Mistakes returns ms with each one's Impl set to model(Name), the model
// with that mistake, so that a suite's table names each mistake once.
func Mistakes[I any](model func(name string) I, ms []Mistake[I]) []Mistake[I] {
	for i := range ms {
		ms[i].Impl = model(ms[i].Name)
	}
	return ms
}

// Named is what the grader keeps of a Mistake once its model has run: its
// name, pitfall and sentence.
type Named struct{ Name, Pitfall, Says string }

// Named returns m without its model.
func (m Mistake[I]) Named() Named { return Named{m.Name, m.Pitfall, m.Says} }

// Explains reports whether mt, the trace of a script replayed on a
// mistake's model, explains t, the trace of the same script on the
// learner's code: both end on a wrong answer at the same call, and every
// answer of the model's is the learner's. A panic is explained by no
// mistake.
func Explains(mt, t Trace) bool {
	if !t.Bad || t.Panic != nil || !mt.Bad || mt.Panic != nil || len(mt.Steps) != len(t.Steps) {
		return false
	}
	for i := range t.Steps {
		if mt.Steps[i].Got != t.Steps[i].Got {
			return false
		}
	}
	return true
}

// Diagnoser returns the names of the mistakes whose models explain the
// trace t of the script s (see Explains), in the order of mistakes: none
// if no mistake does. replay is the suite's replay of a script on an
// implementation.
func Diagnoser[I, S, O any](mistakes []Mistake[I], replay func(I, Script[S, O]) Trace) func(Script[S, O], Trace) []string {
	return func(s Script[S, O], t Trace) []string {
		if !t.Bad || t.Panic != nil {
			return nil
		}
		var out []string
		for _, m := range mistakes {
			if mt, p := Call(func() Trace { return replay(m.Impl, s) }); p == nil && Explains(mt, t) {
				out = append(out, m.Name)
			}
		}
		return out
	}
}

// Finding is one failure a check found: its counterexample, what it means,
// and which mistakes explain it. A check reports its findings in its
// Outcome; Suite.Judge settles, across the exercise, which mistakes they
// show and what each check scores.
type Finding struct {
	Status report.Status // Failed (a wrong answer), Error (a panic) or Timeout (a call that did not return)
	// Head is the failing call's sentence ("TryAcquire(nowNs=3, n=1) =
	// false; want true.", or what panicked); Detail explains it in the
	// script's own numbers, ending with the check's why.
	Head, Detail   string
	Counterexample *report.Counterexample
	// Mistakes names the mistakes whose models explain it, if the suite
	// has error models (Diagnosed); none: a mistake the course has no
	// name for.
	Mistakes  []string
	Diagnosed bool
	// Own marks the failure of a check judged by its own table of single
	// calls (an argument or config validation): it is charged to that
	// check alone.
	Own bool

	// Attributed says that the fields below were set (see
	// Parts.attribute): where the finding's difference comes from.
	Attributed bool
	// Stays: the script holds the trap of the check that found it and,
	// where that trap has a neutraliser, the implementation answers the
	// neutralised script right: the trap causes the difference.
	Stays bool
	// Needs names the other checks whose trap the difference needs
	// (proven by their neutralisers), in the suite's order.
	Needs []string
	// Holds names every check whose trap the script holds, in the
	// suite's order, and Details what the check that found it and
	// exactness, where they hold it, say of it: a check's words are used
	// only where its trap is in the script.
	Holds   []string
	Details map[string]string
	// Key is the same for two findings of one mistake: the same script
	// answered the same way, a panic of the same call with the same
	// value, or the same method not returning.
	Key string

	// A case is diagnosed once it has run, from its script and trace;
	// caused is what the property's search found (see Property.Caused).
	script any
	trace  Trace
	caused bool
}

// Message is the finding's whole text: Head, then Detail.
func (f Finding) Message() string { return strings.TrimSpace(f.Head + " " + f.Detail) }

// finding makes the finding of a trace that ended on a mismatch or a
// panic; why explains, in the learner's terms, what the mismatch means.
func finding(t Trace, why string) Finding {
	o := Fail(t, why)
	f := Finding{Status: o.Status, Counterexample: o.Counterexample, Head: o.Message}
	if o.Status == report.Failed {
		last := t.Steps[len(t.Steps)-1]
		f.Head = last.Call + " = " + last.Got + "; want " + last.Want + "."
		f.Detail = why
	}
	return f
}
