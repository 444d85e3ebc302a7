package fairqueue

import "ratelab/grader/check"

// traps are the checks' traps that the suite declares (see check.Trap);
// every other check's is the one its pitfall's mistakes fall into.
//
// deficit-reset's is also any script in which a session leaves the round
// with credit unspent, which the contract sets to 0: wherever that credit
// goes instead (into the session's return, or into the next newcomer's
// deficit), the difference comes from that rule, whichever check's script
// shows it (a command above the quantum served early, a newcomer served
// out of turn).
var traps = map[string]check.Trap[setup, op]{
	"deficit-reset": {Has: func(s script) bool { return leavesWithCredit(s) || fallsInto(s, "deficit-reset") }},
}

// leavesWithCredit reports whether a session of s, as the contract answers
// it, empties with some of its deficit unspent (which the contract then
// sets to 0).
func leavesWithCredit(s script) bool {
	m := newModel(s.Setup.Quantum)
	for _, o := range s.Ops {
		switch {
		case o.Pop:
			if id, _, ok := m.Pop(); ok && m.Waiting(id) == 0 && m.LastLeft[id] > 0 {
				return true
			}
		case !o.Len:
			m.Push(o.Session, o.Cost)
		}
	}
	return false
}

// fallsInto reports whether the model of some mistake of pitfall answers
// a call of s otherwise than the contract.
func fallsInto(s script, pitfall string) bool {
	s.Full = false
	for _, m := range mistakes {
		if m.Pitfall != pitfall {
			continue
		}
		if t, pn := check.Call(func() check.Trace { return replay(m.Impl, s) }); pn == nil && t.Bad {
			return true
		}
	}
	return false
}
