package check

import (
	"slices"
	"strings"
	"unicode"
)

// ArgCase is one call of a constructor in a new-arguments check: its
// arguments, and the argument at fault ("" if they are all valid).
type ArgCase[A any] struct {
	Args A
	Bad  string
	// Also lists the other arguments a panic may name beside or instead
	// of Bad, where the fault lies between them (windowNs below buckets:
	// either is the one to change).
	Also []string
}

// NewArgs is a new-arguments check: it calls a constructor once per case,
// each call on its own. A case with an argument at fault must panic with a
// message naming that argument (a division by zero or an index out of
// range does not say which one is wrong) and no other argument, which
// would blame one that is valid; a valid case must not panic.
type NewArgs[A any] struct {
	Cases []ArgCase[A]
	Call  func(A) string // how the call is written, e.g. "New(ratePerSec=0, ...)"
	Make  func(A)        // makes the call
	// Names lists, for each argument a case may fault, the words of which
	// a panic message (in lower case) must hold one, at the start of a
	// word, to name it.
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
			want = "a panic naming " + strings.Join(append([]string{a.Bad}, a.Also...), " or ")
			if blameless := c.blameless(a); len(blameless) > 0 {
				want += ", not " + strings.Join(blameless, " nor ")
			}
		}
		if p != nil {
			got = "panic: " + p.Error()
			if a.Bad != "" && c.blames(p.Error(), a) {
				got = want
			}
		}
		if !t.Step(c.Call(a.Args), got, want, nil) {
			return Fail(t, c.Why)
		}
	}
	return Pass()
}

// blameless lists, in order, the arguments of Names that the case a does
// not fault.
func (c NewArgs[A]) blameless(a ArgCase[A]) []string {
	var out []string
	for arg := range c.Names {
		if arg != a.Bad && !slices.Contains(a.Also, arg) {
			out = append(out, arg)
		}
	}
	slices.Sort(out)
	return out
}

// blames reports whether a panic message names an argument the case a
// faults (Bad or Also) and none that it does not.
func (c NewArgs[A]) blames(msg string, a ArgCase[A]) bool {
	if !c.names(msg, a.Bad) && !slices.ContainsFunc(a.Also, func(arg string) bool { return c.names(msg, arg) }) {
		return false
	}
	return !slices.ContainsFunc(c.blameless(a), func(arg string) bool { return c.names(msg, arg) })
}

// names reports whether a panic message names the argument arg: holds one
// of its words at the start of a word ("windowNs" names windowNs, the
// package name "slidingwindow" does not).
func (c NewArgs[A]) names(msg, arg string) bool {
	msg = strings.ToLower(msg)
	for _, w := range c.Names[arg] {
		for i := 0; ; {
			j := strings.Index(msg[i:], w)
			if j < 0 {
				break
			}
			if at := i + j; at == 0 || !unicode.IsLetter(rune(msg[at-1])) {
				return true
			}
			i += j + 1
		}
	}
	return false
}
