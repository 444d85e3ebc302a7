package fairqueue

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
)

// Explanations of a failure in the script's own numbers: each says what
// the contract's queue had before the failing call, then the check's why.

// before replays the model over the calls before last (none if the setup
// failed: last is -1).
func before(s script, last int) *model {
	m := newModel(s.Setup.Quantum)
	for _, o := range s.Ops[:max(last, 0)] {
		switch {
		case o.Pop:
			m.Pop()
		case !o.Len:
			m.Push(o.Session, o.Cost)
		}
	}
	return m
}

// comebacks returns the sessions that, before call last, emptied with
// credit left over (which the contract throws away) and were pushed again,
// each with the credit it had when it last emptied.
func comebacks(s script, last int) (ids []string) {
	m := newModel(s.Setup.Quantum)
	left := map[uint32]uint64{}
	for _, o := range s.Ops[:max(last, 0)] {
		switch {
		case o.Pop:
			if sess, _, ok := m.Pop(); ok && m.Waiting(sess) == 0 {
				left[sess] = m.LastLeft[sess]
			}
		case !o.Len:
			if d := left[o.Session]; d > 0 && m.Waiting(o.Session) == 0 {
				ids = append(ids, fmt.Sprintf("%d (with %s left)", o.Session, check.U(d)))
				delete(left, o.Session)
			}
			m.Push(o.Session, o.Cost)
		}
	}
	return ids
}

func explainDeficit(s script, t check.Trace, why string) string {
	back := comebacks(s, t.Last())
	if len(back) == 0 {
		return why
	}
	return fmt.Sprintf("Here session %s emptied with credit left over and came back. %s", strings.Join(back, " and "), why)
}

func explainLarge(s script, t check.Trace, why string) string {
	q := s.Setup.Quantum
	var large []string
	for _, o := range s.Ops[:t.Last()+1] {
		if !o.Pop && !o.Len && o.Cost > q && len(large) < 3 {
			turns := (o.Cost + q - 1) / q
			large = append(large, fmt.Sprintf("session %d's command costing %s (%s turns' quantum)", o.Session, check.U(o.Cost), check.U(turns)))
		}
	}
	if len(large) == 0 {
		return why
	}
	return fmt.Sprintf("Here quantum=%s, and among the commands pushed: %s. %s", check.U(q), strings.Join(large, ", "), why)
}

func explainRound(s script, t check.Trace, why string) string {
	m := before(s, t.Last())
	var order []string
	for _, x := range m.Round {
		order = append(order, fmt.Sprint(x))
	}
	return fmt.Sprintf("Before the last call the round was [%s], head first. %s", strings.Join(order, ", "), why)
}

func explainTurn(s script, t check.Trace, why string) string {
	m := before(s, t.Last())
	head, inTurn, ok := m.Head()
	switch {
	case !ok:
		return why
	case !inTurn:
		return fmt.Sprintf("Before the last call, session %d was at the head of the round, its turn not yet begun, with a deficit of %s and its next command costing %s. %s", head, check.U(m.Flows[head].Deficit), check.U(m.Flows[head].Queue[0]), why)
	}
	return fmt.Sprintf("Before the last call, session %d was in its turn with a deficit of %s and its next command costing %s. %s", head, check.U(m.Flows[head].Deficit), check.U(m.Flows[head].Queue[0]), why)
}

// explainFIFO says the fifo check's why only where the last call is a Pop
// that served the right session a command other than its oldest: else it
// states the rule.
func explainFIFO(s script, t check.Trace, why string) string {
	if n := len(t.Steps); n > 0 && t.Panic == nil {
		last := t.Steps[n-1]
		got, want := strings.Split(strings.Trim(last.Got, "()"), ", "), strings.Split(strings.Trim(last.Want, "()"), ", ")
		if last.Call == "Pop()" && len(got) == 3 && len(want) == 3 && got[0] == want[0] && got[2] == "true" && want[2] == "true" {
			return why
		}
	}
	return "Within a session, commands leave in the order they came."
}
