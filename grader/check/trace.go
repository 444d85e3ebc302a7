package check

import (
	"slices"

	"ratelab/grader/report"
)

// Trace is what replaying a script against the implementation and the model
// produced: the setup, then one step per call up to and including the first
// call whose result differs from the model's (or that panicked).
type Trace struct {
	Setup string
	Steps []report.Step
	Bad   bool   // the last step differs from the model, or panicked
	Panic *Panic // the panic of the last step (or of the setup), if any
	// Full keeps the replay going past a step that differs from the model
	// (not past a panic): Steps is then every call of the script, and Bad
	// says that some step differs. A replay sets it from Script.Full.
	Full bool
}

// Step records one call. It reports whether the replay should continue: false
// once got differs from want (unless t.Full) or the call panicked.
func (t *Trace) Step(call, got, want string, p *Panic) bool {
	switch {
	case p.hang():
		got = "no answer: it did not return"
	case p != nil:
		got = "panic: " + p.Error()
	}
	t.Steps = append(t.Steps, report.Step{Call: call, Got: got, Want: want})
	if p != nil || got != want {
		t.Bad, t.Panic = true, p
		return t.Full && p == nil
	}
	return true
}

// SetupPanic records that the constructor itself panicked.
func (t *Trace) SetupPanic(p *Panic) {
	t.Bad, t.Panic = true, p
}

// Hung reports whether the last call of t did not return (see Hang).
func (t Trace) Hung() bool { return t.Panic.hang() }

// Last returns the index of t's last step (the failing call of a bad
// trace), or -1 if it has none.
func (t Trace) Last() int { return len(t.Steps) - 1 }

// Replay makes the calls of ops, each at its time (see Times), and records
// them in t until one fails (see Step). call makes o's call at now on the
// implementation and on the model, and returns the call as the report
// writes it, the implementation's answer, the model's, and the call's
// panic, if any.
func Replay[O Timed](t *Trace, start uint64, ops []O, call func(o O, now uint64) (line, got, want string, p *Panic)) {
	t.Steps = slices.Grow(t.Steps, len(ops)) // most replays make every call
	for o, now := range Times(start, ops) {
		if !t.Step(call(o, now)) {
			return
		}
	}
}
