package breaker

import (
	"fmt"
	"slices"

	"ratelab/grader/check"
)

type setup = check.ConfigAt[Config]

// call is the method an op calls.
type call uint8

const (
	allowCall call = iota
	doneCall
	stateCall
)

// Ticket kinds of a Done that reports a ticket never issued.
const (
	issued   uint8 = iota // a ticket Allow let through, not yet reported (see op.Of)
	zero                  // 0
	one                   // 1
	lastPlus              // the last ticket Allow returned with ok, plus 1
)

// op is one call, at its When.
type op struct {
	Call    call
	Of      int   // doneCall, Bogus == issued: which ticket not yet reported, newest first, modulo their count
	Bogus   uint8 // doneCall: issued, or a ticket never issued
	Success bool  // doneCall
	check.When
}

type script = check.Script[setup, op]

var stateNames = []string{"Closed", "Open", "HalfOpen"}

func (s State) String() string { return check.EnumName(stateNames, s, "State") }

func configString(c Config) string {
	return fmt.Sprintf("Config{FailureThreshold: %d, OpenNs: %s, HalfOpenProbes: %d}", c.FailureThreshold, check.U(c.OpenNs), c.HalfOpenProbes)
}

// ticketOf is a ticket as both sides hold it: the learner's value, the
// model's generation, and the step (1-based) that issued it.
type ticketOf struct {
	value, gen uint64
	step       int
}

// tickets tracks the tickets of a replay: the ones Allow let through, in
// order, and every value Allow returned.
type tickets struct {
	issued   []ticketOf
	reported []bool
	returned []uint64
	last     uint64 // the last ticket returned with ok
}

// outstanding returns the index in issued of the ticket a Done's Of
// names: the Of-th not yet reported, newest first (0 is the latest),
// modulo their count. Newest first, a script that drops calls before a
// report (as shrinking does) still reports the same ticket. The domain's
// Valid has made sure there is one, as long as the code answered every
// Allow as the model did; past a difference (a replay of the whole
// script, see check.Script.Full) there may be none: ok is then false.
func (ts *tickets) outstanding(of int) (k int, ok bool) {
	var open []int
	for i := len(ts.reported) - 1; i >= 0; i-- {
		if !ts.reported[i] {
			open = append(open, i)
		}
	}
	if len(open) == 0 {
		return 0, false
	}
	return open[of%len(open)], true
}

// bogus returns the value a Done of kind k reports: its nominal value, or
// the next one up if Allow ever returned it.
func (ts *tickets) bogus(k uint8) uint64 {
	v := uint64(0)
	switch k {
	case one:
		v = 1
	case lastPlus:
		v = ts.last + 1
	}
	for slices.Contains(ts.returned, v) {
		v++
	}
	return v
}

func (o op) callString(now uint64, ticket uint64, from string) string {
	switch o.Call {
	case allowCall:
		return fmt.Sprintf("Allow(nowNs=%s)", check.U(now))
	case stateCall:
		return fmt.Sprintf("State(nowNs=%s)", check.U(now))
	}
	return fmt.Sprintf("Done(ticket=%s [%s], success=%t, nowNs=%s)", check.U(ticket), from, o.Success, check.U(now))
}

func replay(newImpl New, s script) check.Trace {
	st := s.Setup
	t, b, ok := check.BeginNew(st, configString, "a nil *Breaker", newImpl)
	t.Full = s.Full
	if ok {
		m := newModel(st.Cfg, st.Start)
		var ts tickets
		i := 0
		check.Replay(&t, st.Start, s.Ops, func(o op, now uint64) (line, got, want string, p *check.Panic) {
			m.Call = i
			i++
			switch o.Call {
			case allowCall:
				type answer struct {
					ticket uint64
					ok     bool
				}
				var a answer
				a, p = check.Call(func() answer { tk, ok := b.Allow(now); return answer{tk, ok} })
				gen, wantOK := m.Allow(now)
				got, want = check.B(a.ok), check.B(wantOK)
				if p == nil {
					ts.returned = append(ts.returned, a.ticket)
					if a.ok && wantOK {
						ts.issued = append(ts.issued, ticketOf{a.ticket, gen, i})
						ts.reported = append(ts.reported, false)
						ts.last = a.ticket
					}
				}
				line = o.callString(now, 0, "")
			case stateCall:
				var sv State
				sv, p = check.Call(func() State { return b.State(now) })
				got, want = sv.String(), m.StateAt(now).String()
				line = o.callString(now, 0, "")
			default:
				var value uint64
				from := "never issued"
				k, found := ts.outstanding(o.Of)
				if o.Bogus == issued && found {
					tk := ts.issued[k]
					ts.reported[k] = true
					value, from = tk.value, fmt.Sprintf("from step %d", tk.step)
					m.Done(tk.gen, true, o.Success, now)
				} else { // a ticket never issued (or, past a difference, an issued one with none left: the least value Allow never returned)
					value = ts.bogus(o.Bogus)
					m.Done(0, false, o.Success, now)
				}
				_, p = check.Call(func() bool { b.Done(value, o.Success, now); return true })
				line = o.callString(now, value, from)
			}
			return line, got, want, p
		})
	}
	return t
}
