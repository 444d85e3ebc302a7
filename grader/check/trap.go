package check

import (
	"slices"
)

// Trap is the feature of a script that a check's pitfall is about, as
// data: Has says whether a script holds it ("a time earlier than one seen
// before", "a request for more than the bucket holds"), and Neutral, where
// the contract allows, rewrites a script without it so that the contract
// answers every call alike (a step back made at the latest time instead; a
// refused request, which changes nothing, removed).
//
// A failure belongs to a check only when its trap causes it (see
// Parts.attribute): the shrunk counterexample holds the trap and, where the
// check has a Neutral, the implementation answers the neutralised script
// as the model does. This is Hypothesis's explain phase and Zeller's
// isolation of a failure-inducing input: vary the part, see whether the
// failure stays. A finding that does not need its check's trap goes to the
// check whose trap it does need, else to exactness.
type Trap[S, O any] struct {
	Has func(Script[S, O]) bool
	// Neutral, if set, returns s without the feature, with ok false where
	// s cannot be rewritten. A finding of the check that the neutralised
	// script also shows is shown on it (see Parts.attribute); one whose
	// script cannot be rewritten is not shown to need the trap, and is
	// shown, where one is found, on a script without the trap that
	// withoutTrap finds.
	Neutral func(Script[S, O]) (Script[S, O], bool)
}

// Always is the trap of a check about every rule at once (exactness): every
// script holds it and nothing neutralises it.
func Always[S, O any]() Trap[S, O] {
	return Trap[S, O]{Has: func(Script[S, O]) bool { return true }}
}

// StepsBack is the trap of a check about a clock that steps back: a call
// made earlier than the latest time seen (the setup's time, start, counts),
// neutralised by making every such call at the latest time instead, which
// the contract answers alike ("a time at or before the latest one counts as
// that latest time").
func StepsBack[S any, O any, P Clocked[O]](start func(S) uint64) Trap[S, O] {
	return Trap[S, O]{
		Has: func(s Script[S, O]) bool {
			latest := start(s.Setup)
			for _, o := range s.Ops {
				wait, back := P(&o).Clock()
				now := TimeAt(latest, *wait, *back)
				if now < latest {
					return true
				}
				latest = max(latest, now)
			}
			return false
		},
		Neutral: func(s Script[S, O]) (Script[S, O], bool) {
			ops := slices.Clone(s.Ops)
			for i := range ops {
				if wait, back := P(&ops[i]).Clock(); *back > 0 {
					*wait, *back = 0, 0
				}
			}
			s.Ops = ops
			return s, true
		},
	}
}

// Without is a Neutral that removes the calls of a script for which drop
// holds (given the script and the call's index), for features the contract
// answers by changing nothing but the time: a refused request, an invalid
// call. The last call, whose answer differs, is never dropped: the
// feature is what comes before it. The time a dropped call moved forward is kept by the next call
// (see FoldWait); a script with nothing to drop, or whose dropped call's
// wait cannot be folded into a step back after it, is not neutralised (ok
// false). The suite's drop must only name calls whose own effect, beside
// moving the clock, is nothing.
func Without[S any, O any, P Clocked[O]](drop func(s Script[S, O], i int) bool) func(Script[S, O]) (Script[S, O], bool) {
	return func(s Script[S, O]) (Script[S, O], bool) {
		var ops []O
		carry, dropped := uint64(0), false
		for i, o := range s.Ops {
			wait, back := P(&o).Clock()
			if i < len(s.Ops)-1 && drop(s, i) {
				dropped = true
				if *back == 0 {
					carry = Saturating(carry, *wait)
				}
				continue
			}
			if carry > 0 {
				w, ok := FoldWait(carry, 0, *wait, *back)
				if !ok {
					return s, false
				}
				*wait = w
				carry = 0
			}
			ops = append(ops, o)
		}
		if !dropped {
			return s, false
		}
		s.Ops = ops
		return s, true
	}
}
