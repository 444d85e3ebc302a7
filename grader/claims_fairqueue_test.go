package grader_test

import (
	"strconv"
	"strings"

	"ratelab/grader/report"
)

var fairqueueClaims = []claim{
	{"fairqueue", "The right session was served, but not its oldest waiting command", func(ce *report.Counterexample, _ string) bool {
		last := ce.Steps[len(ce.Steps)-1]
		got, want := popped(last.Got), popped(last.Want)
		return last.Name == "Pop" && len(got) == 3 && len(want) == 3 && got[0] == want[0] && got[1] != want[1]
	}},
	// The round-order check's why; its domain pushes every command at
	// cost quantum (rules.equalCost).
	{"fairqueue", "Every command here costs exactly quantum", func(ce *report.Counterexample, _ string) bool {
		q := setupArg(ce, "quantum")
		for _, s := range ce.Steps {
			if s.Name == "Push" && arg(s.Args, "cost") != q {
				return false
			}
		}
		return true
	}},
	// "Here quantum=3, and among the commands pushed: session 1's command
	// costing 7 (3 turns' quantum)".
	{"fairqueue", "among the commands pushed", func(ce *report.Counterexample, msg string) bool {
		q := setupArg(ce, "quantum")
		return all(msg, `Here quantum=`+numRE, func(n []uint64) bool { return n[0] == q }) &&
			all(msg, `session (\d+)'s command costing `+numRE+` \(`+numRE+` turns' quantum\)`, func(n []uint64) bool {
				return n[1] > q && n[2] == (n[1]+q-1)/q && pushed(ce, len(ce.Steps), n[0], n[1])
			})
	}},
	// "Here session 0 (with 4 left) emptied with credit left over and came
	// back": it emptied with that deficit, before it was zeroed, then was
	// pushed again, before the last call.
	{"fairqueue", "emptied with credit left over and came back", func(ce *report.Counterexample, msg string) bool {
		back := map[uint64]uint64{}
		d := newDRR(ce)
		for _, st := range ce.Steps[:len(ce.Steps)-1] {
			if st.Name == "Push" && len(d.fifo[arg(st.Args, "session")]) == 0 && d.left[arg(st.Args, "session")] > 0 {
				back[arg(st.Args, "session")] = d.left[arg(st.Args, "session")]
			}
			d.step(st)
		}
		return all(msg, `session (\d+) \(with `+numRE+` left\)`, func(n []uint64) bool { return n[1] > 0 && back[n[0]] == n[1] })
	}},
	// "Before the last call, session 2 was in its turn with a deficit of
	// 3 and its next command costing 5".
	{"fairqueue", "and its next command costing", func(ce *report.Counterexample, msg string) bool {
		d := drrBefore(ce)
		if len(d.round) == 0 {
			return false
		}
		head := d.round[0]
		turn := map[bool]string{true: "in its turn", false: "at the head of the round, its turn not yet begun,"}[d.inTurn]
		return allText(msg, `session (\d+) was ([a-z ,]+) with a deficit of `+numRE+` and its next command costing `+numRE, func(q []string) bool {
			return num(q[0]) == head && q[1] == turn && num(q[2]) == d.deficit[head] && num(q[3]) == d.fifo[head][0]
		})
	}},
	// "Before the last call the round was [1, 0], head first."
	{"fairqueue", "Before the last call the round was", func(ce *report.Counterexample, msg string) bool {
		var ids []string
		for _, id := range drrBefore(ce).round {
			ids = append(ids, strconv.FormatUint(id, 10))
		}
		return allText(msg, `the round was \[([0-9, ]*)\]`, func(q []string) bool { return q[0] == strings.Join(ids, ", ") })
	}},
}

// popped splits a Pop's answer "(1, 5, true)" into its parts.
func popped(answer string) []string { return strings.Split(strings.Trim(answer, "()"), ", ") }

// pushed reports whether one of the first n steps of ce pushes a command
// of session costing cost (any cost, if cost is 0).
func pushed(ce *report.Counterexample, n int, session, cost uint64) bool {
	for _, s := range ce.Steps[:n] {
		if s.Name == "Push" && arg(s.Args, "session") == session && (cost == 0 || arg(s.Args, "cost") == cost) {
			return true
		}
	}
	return false
}

// drr is the contract's deficit round robin queue, replayed over a
// counterexample's steps: a FIFO of costs and a deficit per session, and
// the round of the sessions with commands waiting; quantum is added at
// the start of a turn; a session that empties leaves the round with
// deficit 0 (left keeps what it had), one whose next command costs more
// than its deficit goes to the end of the round, keeping it.
type drr struct {
	quantum       uint64
	fifo          map[uint64][]uint64
	deficit, left map[uint64]uint64
	round         []uint64
	inTurn        bool // the head of the round has begun its turn
}

func newDRR(ce *report.Counterexample) *drr {
	return &drr{quantum: setupArg(ce, "quantum"), fifo: map[uint64][]uint64{}, deficit: map[uint64]uint64{}, left: map[uint64]uint64{}}
}

// drrBefore is the queue after every step of ce but the last.
func drrBefore(ce *report.Counterexample) *drr {
	d := newDRR(ce)
	for _, st := range ce.Steps[:len(ce.Steps)-1] {
		d.step(st)
	}
	return d
}

func (d *drr) step(st report.Step) {
	switch st.Name {
	case "Push":
		s := arg(st.Args, "session")
		if len(d.fifo[s]) == 0 {
			d.round, d.deficit[s] = append(d.round, s), 0
		}
		d.fifo[s] = append(d.fifo[s], arg(st.Args, "cost"))
	case "Pop":
		for len(d.round) > 0 {
			s := d.round[0]
			if !d.inTurn {
				d.deficit[s] += d.quantum
				d.inTurn = true
			}
			if c := d.fifo[s][0]; c <= d.deficit[s] {
				d.fifo[s], d.deficit[s] = d.fifo[s][1:], d.deficit[s]-c
				if len(d.fifo[s]) == 0 {
					d.left[s], d.deficit[s], d.round, d.inTurn = d.deficit[s], 0, d.round[1:], false
				}
				return
			}
			d.round, d.inTurn = append(d.round[1:], s), false
		}
	}
}
