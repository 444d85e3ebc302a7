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
	// back": served, then pushed again.
	{"fairqueue", "emptied with credit left over and came back", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `session (\d+) \(with `+numRE+` left\)`, func(n []uint64) bool {
			served := false
			for _, s := range ce.Steps[:len(ce.Steps)-1] {
				if w := popped(s.Want); s.Name == "Pop" && len(w) == 3 && w[0] == strconv.FormatUint(n[0], 10) {
					served = true
				} else if served && s.Name == "Push" && arg(s.Args, "session") == n[0] {
					return n[1] > 0
				}
			}
			return false
		})
	}},
	// "Before the last call, session 2 was in its turn with a deficit of
	// 3 and its next command costing 5": a command it was pushed.
	{"fairqueue", "and its next command costing", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `session (\d+) was [a-z ,]+ with a deficit of `+numRE+` and its next command costing `+numRE, func(n []uint64) bool {
			return pushed(ce, len(ce.Steps)-1, n[0], n[2])
		})
	}},
	// "Before the last call the round was [1, 0], head first": sessions
	// pushed before it.
	{"fairqueue", "Before the last call the round was", func(ce *report.Counterexample, msg string) bool {
		m := quotesText(msg, `the round was \[([0-9, ]*)\]`)
		if len(m) != 1 {
			return false
		}
		for _, id := range strings.Split(m[0][0], ", ") {
			n, err := strconv.ParseUint(id, 10, 64)
			if id != "" && (err != nil || !pushed(ce, len(ce.Steps)-1, n, 0)) {
				return false
			}
		}
		return true
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
