package grader_test

import (
	"strings"

	"ratelab/grader/report"
)

var throttleClaims = []claim{
	// "The period pending until RecoverAtNs=500 was over at nowNs=600."
	{"throttle", "was over at nowNs=", func(ce *report.Counterexample, msg string) bool {
		_, latest, _ := clock(ce)
		return all(msg, `until RecoverAtNs=`+numRE+` was over at nowNs=`+numRE, func(q []uint64) bool {
			return q[0] > 0 && q[1] >= q[0] && slicesAny(latest, func(n uint64) bool { return n == q[1] })
		})
	}},
	// "At nowNs=7 the gate is Normal; address 2 has 1 accepted write in
	// its window of 10 ns, and the global limit allows 1, but it is
	// whitelisted": the last call, a Write of that address; its override
	// if one was set last, the global limit if none or cleared; whitelisted
	// if it was put on the list last; where no override of it was set or
	// cleared, its writes accepted in (now−window, now] are those counted.
	{"throttle", " in its window of ", func(ce *report.Counterexample, msg string) bool {
		_, latest, _ := clock(ce)
		last := len(ce.Steps) - 1
		w := ce.Steps[last]
		override, white := false, false
		for _, s := range ce.Steps[:last] {
			switch {
			case changesLimit(s, arg(w.Args, "addr")):
				override = s.Name == "SetIssuerLimit"
			case s.Name == "SetWhitelisted" && arg(s.Args, "addr") == arg(w.Args, "addr"):
				white = strings.Contains(s.Call, "on=true")
			}
		}
		if override != strings.Contains(msg, "and its override allows") || white != strings.Contains(msg, ", but it is whitelisted") {
			return false
		}
		return all(msg, `At nowNs=`+numRE+` the gate is [A-Za-z]+; address (\d+) has (\d+) accepted writes? in its window of `+numRE+` ns`, func(q []uint64) bool {
			if w.Name != "Write" || q[0] != latest[last] || arg(w.Args, "addr") != q[1] {
				return false
			}
			n := uint64(0)
			for i, s := range ce.Steps[:last] {
				if changesLimit(s, q[1]) {
					return true // the window started afresh: not counted here
				}
				if s.Name == "Write" && arg(s.Args, "addr") == q[1] && s.Want == "nil" && latest[i]+q[3] > q[0] {
					n++
				}
			}
			return n == q[2]
		})
	}},
	{"throttle", "the congestion window holds", func(ce *report.Counterexample, msg string) bool {
		_, latest, _ := clock(ce)
		last := ce.Steps[len(ce.Steps)-1]
		return (last.Name == "AdjustCongestion" || last.Name == "Status") &&
			all(msg, `At nowNs=`+numRE+` the congestion window holds`, func(q []uint64) bool { return q[0] == latest[len(latest)-1] })
	}},
}

// changesLimit reports whether s sets or clears the override of addr
// (one that fails changes nothing).
func changesLimit(s report.Step, addr uint64) bool {
	return strings.HasSuffix(s.Name, "IssuerLimit") && arg(s.Args, "addr") == addr && !strings.Contains(s.Want, "error")
}
