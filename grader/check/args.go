package check

import "strings"

// ArgCase is one call of a constructor in a new-arguments check: its
// arguments, and the argument at fault ("" if they are all valid).
type ArgCase[A any] struct {
	Args A
	Bad  string
}

// NewArgs is a new-arguments check: it calls a constructor once per case,
// each call on its own. A case with an argument at fault must panic with a
// message naming that argument (a division by zero or an index out of
// range does not say which one is wrong); a valid one must not panic.
type NewArgs[A any] struct {
	Cases []ArgCase[A]
	Call  func(A) string // how the call is written, e.g. "New(ratePerSec=0, ...)"
	Make  func(A)        // makes the call
	// Names lists, for each argument a case may fault, the words of which
	// a panic message (in lower case) must hold one to name it.
	Names map[string][]string
	Why   string // what the contract says, for the failure's message
}

// Run makes the calls, stopping at the first that does not do as the
// contract says.
func (c NewArgs[A]) Run() Outcome {
	t := Trace{Setup: "// each step is a call of New on its own"}
	for _, a := range c.Cases {
		_, p := Call(func() struct{} { c.Make(a.Args); return struct{}{} })
		want, got := "no panic", "no panic"
		if a.Bad != "" {
			want = "a panic naming " + a.Bad
		}
		if p != nil {
			got = "panic: " + p.Error()
			if a.Bad != "" && c.names(p.Error(), a.Bad) {
				got = want
			}
		}
		if !t.Step(c.Call(a.Args), got, want, nil) {
			return Fail(t, c.Why)
		}
	}
	return Pass()
}

// names reports whether a panic message names the argument arg.
func (c NewArgs[A]) names(msg, arg string) bool {
	msg = strings.ToLower(msg)
	for _, w := range c.Names[arg] {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
