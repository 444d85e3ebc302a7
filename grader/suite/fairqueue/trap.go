package fairqueue

import (
	"fmt"
	"slices"
	"strings"

	"ratelab/grader/check"
)

// Traps: each check's failure must contain the mistake it names (see
// check.Property.Trap).

// before replays the model over the calls before last.
func before(s script, last int) *model {
	m := newModel(s.Setup.Quantum)
	for _, o := range s.Ops[:last] {
		switch {
		case o.Pop:
			m.pop()
		case !o.Len:
			m.push(o.Session, o.Cost)
		}
	}
	return m
}

// failedPop parses a failing Pop: the session got, and whether both got and
// want served a command.
type failedPop struct {
	got, want         uint32
	gotCost, wantCost string
	both              bool
}

// parsePop parses t's failing call, for the traps: false unless it is a
// Pop answered without a panic.
func parsePop(t check.Trace, s script) (failedPop, bool) {
	last := t.Last()
	if !s.Ops[last].Pop || t.Panic != nil {
		return failedPop{}, false
	}
	st := t.Steps[last]
	var f failedPop
	var gok, wok bool
	if n, _ := fmt.Sscanf(st.Got, "(%d, %s %t)", &f.got, &f.gotCost, &gok); n != 3 {
		return f, false
	}
	fmt.Sscanf(st.Want, "(%d, %s %t)", &f.want, &f.wantCost, &wok)
	f.both = gok && wok
	return f, true
}

// comebacks returns, for s up to last, the sessions that emptied with credit
// left and were pushed again, and s with each such comeback made by a fresh
// session id instead (the contract treats both alike: deficit 0, the end
// of the round).
func comebacks(s script, last int) ([]uint32, script) {
	m := newModel(s.Setup.Quantum)
	gen := map[uint32]uint32{}
	credit := map[uint32]bool{}
	var back []uint32
	alt := script{Setup: s.Setup}
	for i, o := range s.Ops {
		switch {
		case o.Pop:
			sess, c, ok := m.pop()
			if ok && len(m.fifo[sess]) == 0 {
				gen[sess]++
				credit[sess] = m.deficitBefore(sess, c)
			}
		case !o.Len:
			if gen[o.Session] > 0 && len(m.fifo[o.Session]) == 0 && credit[o.Session] && i <= last && !slices.Contains(back, o.Session) {
				back = append(back, o.Session)
			}
			m.push(o.Session, o.Cost)
			if g := gen[o.Session]; g > 0 {
				o.Session = 1_000_000 + o.Session*1000 + g
			}
		}
		alt.Ops = append(alt.Ops, o)
	}
	return back, alt
}

// deficitTrap: a session that emptied with credit left came back before
// the failing call, and with each comeback made by a fresh session the
// script passes.
func deficitTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	back, alt := comebacks(s, last)
	return len(back) > 0 && !replay(alt).Bad
}

// largeTrap: a command costing more than quantum was pushed up to the
// failing call, and with every cost cut to quantum the script passes.
func largeTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	large := false
	alt := script{Setup: s.Setup, Ops: slices.Clone(s.Ops)}
	for i, o := range s.Ops {
		if !o.Pop && !o.Len && o.Cost > s.Setup.Quantum {
			large = large || i <= last
			alt.Ops[i].Cost = s.Setup.Quantum
		}
	}
	if !large || replay(alt).Bad {
		return false
	}
	// A comeback with credit kept explains it as well: deficit-reset's.
	if back, fresh := comebacks(s, last); len(back) > 0 && !replay(fresh).Bad {
		return false
	}
	return true
}

// roundTrap: a Pop served the wrong session where neither the session
// served nor the one wanted continues the turn under way: the order of the
// round is what differs.
func roundTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	f, ok := parsePop(t, s)
	if !ok || !f.both || f.got == f.want {
		return false
	}
	head, inTurn, _ := before(s, t.Last()).head()
	return !(inTurn && (f.want == head || f.got == head))
}

// turnTrap: a Pop disagrees on whether the turn under way goes on: the
// session in its turn was served when its deficit no longer covered its
// next command, or was not served when it did.
func turnTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	f, ok := parsePop(t, s)
	if !ok || !f.both {
		return false
	}
	head, inTurn, _ := before(s, t.Last()).head()
	return inTurn && (f.want == head) != (f.got == head)
}

// fifoTrap: a Pop served the right session but another of its commands.
func fifoTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	f, ok := parsePop(t, s)
	return ok && f.both && f.got == f.want && f.gotCost != f.wantCost
}

// Explanations in the script's own numbers.

func explainDeficit(s script, t check.Trace, why string) string {
	back, _ := comebacks(s, t.Last())
	var ids []string
	for _, b := range back {
		ids = append(ids, fmt.Sprint(b))
	}
	return fmt.Sprintf("Here session %s emptied with credit left over and came back; made by a new session instead, the same script passes. %s", strings.Join(ids, " and "), why)
}

func explainLarge(s script, t check.Trace, why string) string {
	return fmt.Sprintf("Here commands cost more than quantum=%s; with every cost cut to the quantum, the same script passes. %s", check.U(s.Setup.Quantum), why)
}

func explainRound(s script, t check.Trace, why string) string {
	m := before(s, t.Last())
	var order []string
	for _, x := range m.round {
		order = append(order, fmt.Sprint(x))
	}
	return fmt.Sprintf("Before the last Pop the round was [%s], head first. %s", strings.Join(order, ", "), why)
}

func explainTurn(s script, t check.Trace, why string) string {
	m := before(s, t.Last())
	head, _, _ := m.head()
	return fmt.Sprintf("Before the last Pop, session %d was in its turn with a deficit of %s and its next command costing %s. %s", head, check.U(m.deficit[head]), check.U(m.fifo[head][0]), why)
}

func explainFIFO(s script, t check.Trace, why string) string { return why }

// deficitBefore reports whether session s, which just paid c and emptied,
// had credit left before its deficit was reset: the model resets it, so
// this is worked out again from the cost paid.
func (m *model) deficitBefore(s uint32, c uint64) bool { return m.lastLeft[s] > 0 }
