package grader_test

import (
	"strings"

	"ratelab/grader/report"
)

var hierarchyClaims = []claim{
	// "call 3 asked for 5 tokens, which node 1 did not hold": a request
	// the contract refuses.
	{"hierarchy", "tokens, which node", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `call (\d+) asked for `+numRE+` tokens, which node (\d+) did not hold`, func(q []uint64) bool {
			s := ce.Steps[q[0]-1]
			return q[0] < uint64(len(ce.Steps)) && s.Name == "TryAcquire" && arg(s.Args, "n") == q[1] && s.Want == "false"
		})
	}},
	// "call 2 (node 3) also paid at node 1, which is on the path of call 4".
	{"hierarchy", "also paid at node", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `call (\d+) \(node (\d+)\) also paid at node`, func(q []uint64) bool {
			s := ce.Steps[q[0]-1]
			return q[0] < uint64(len(ce.Steps)) && s.Name == "TryAcquire" && arg(s.Args, "node") == q[1] && s.Want == "true"
		}) && all(msg, `which is on the path of call (\d+)`, func(q []uint64) bool { return q[0] == uint64(len(ce.Steps)) })
	}},
	// "node 2 was off the path for 500 ns of the clock's advance": no more
	// than the clock advanced before the last call.
	{"hierarchy", "was off the path for", func(ce *report.Counterexample, msg string) bool {
		_, latest, _ := clock(ce)
		advance := latest[len(latest)-1] - setupArg(ce, "nowNs")
		return all(msg, `node (\d+) was off the path for `+numRE+` ns`, func(q []uint64) bool { return q[1] > 0 && q[1] <= advance })
	}},
	{"hierarchy", "tokens/s on every level", func(ce *report.Counterexample, msg string) bool {
		rates := argsOf(ce, "Add", "ratePerSec")
		return all(msg, `apart at `+numRE+` tokens/s on every level`, func(q []uint64) bool {
			return len(rates) > 0 && slicesAll(rates, func(r uint64) bool { return r == q[0] }) && smallParts(gaps(ce), msg, q[0]) &&
				earned(gaps(ce), msg, `tokens/s on every level: ([0-9.e+-]+) tokens earned`, q[0])
		})
	}},
	{"hierarchy", "Those parts must add up", func(ce *report.Counterexample, _ string) bool {
		return slicesAny(gaps(ce), func(d uint64) bool {
			return slicesAny(argsOf(ce, "Add", "ratePerSec"), func(r uint64) bool { return r > 0 && belowToken(d, r) })
		})
	}},
	// "call 4 named a parent or a node that does not exist (or a parent at
	// MaxDepth)": an Add the contract refuses, or a call on an id no Add
	// returned.
	{"hierarchy", "named a parent or a node that does not exist", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `call (\d+)`, func(q []uint64) bool {
			i := int(q[0]) - 1
			s := ce.Steps[i]
			if s.Name == "Add" {
				return strings.HasPrefix(s.Want, "-1")
			}
			for _, a := range ce.Steps[:i] {
				if a.Name == "Add" && a.Want == s.Args["node"] {
					return false
				}
			}
			return true
		})
	}},
}
