package grader_test

import (
	"math"
	"regexp"
	"strconv"
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
	// (its MaxCalls and WindowNs) if one was set last, the global limit
	// (MaxCalls as AdjustCongestion moved it, Rate.WindowNs) if none or
	// cleared; whitelisted
	// if it was put on the list last; where no override of it was set or
	// cleared, its writes accepted in (now−window, now] are those counted.
	{"throttle", " in its window of ", func(ce *report.Counterexample, msg string) bool {
		_, latest, _ := clock(ce)
		last := len(ce.Steps) - 1
		w := ce.Steps[last]
		override, white := false, false
		limit, window := gateBefore(ce).maxCall, cfgU(ce, "WindowNs") // Rate's, the first shown
		for _, s := range ce.Steps[:last] {
			switch {
			case changesLimit(s, arg(w.Args, "addr")):
				override = s.Name == "SetIssuerLimit"
				if rl, ok := s.Args["arg2"].(map[string]any); ok && override {
					limit, window = arg(rl, "MaxCalls"), arg(rl, "WindowNs")
				}
			case s.Name == "SetWhitelisted" && arg(s.Args, "addr") == arg(w.Args, "addr"):
				white = strings.Contains(s.Call, "on=true")
			}
		}
		if override != strings.Contains(msg, "and its override allows") || white != strings.Contains(msg, ", but it is whitelisted") {
			return false
		}
		return all(msg, `At nowNs=`+numRE+` the gate is [A-Za-z]+; address (\d+) has (\d+) accepted writes? in its window of `+numRE+` ns, and (?:the global limit|its override) allows (\d+)`, func(q []uint64) bool {
			if w.Name != "Write" || q[0] != latest[last] || arg(w.Args, "addr") != q[1] || q[3] != window || q[4] != limit {
				return false
			}
			n := uint64(0)
			for i, s := range ce.Steps[:last] {
				if changesLimit(s, q[1]) {
					return true // the window started afresh: not counted here
				}
				if s.Name == "Write" && arg(s.Args, "addr") == q[1] && s.Want == "nil" && q[0]-latest[i] < q[3] {
					n++
				}
			}
			return n == q[2]
		})
	}},
	// "At nowNs=7 the gate is Degraded; ...".
	{"throttle", "the gate is ", func(ce *report.Counterexample, msg string) bool {
		g := gateBefore(ce)
		return allText(msg, `the gate is ([A-Za-z]+);`, func(q []string) bool { return q[0] == g.state })
	}},
	// "the level was NormalLoad and the global MaxCalls 4 before this call".
	{"throttle", "the level was ", func(ce *report.Counterexample, msg string) bool {
		g := gateBefore(ce)
		return allText(msg, `the level was ([A-Za-z]+) and the global MaxCalls (\d+) before this call`, func(q []string) bool {
			return q[0] == g.level && q[1] == strconv.FormatUint(g.maxCall, 10)
		})
	}},
	// "At nowNs=9 the congestion window holds 2 accepted writes (Low below
	// 1, High above 3)": the writes the contract accepted in
	// (now−Congestion.WindowNs, now], at the last call, AdjustCongestion or
	// Status.
	{"throttle", "the congestion window holds", func(ce *report.Counterexample, msg string) bool {
		_, latest, _ := clock(ce)
		last := len(ce.Steps) - 1
		window := num(regexp.MustCompile(`Congestion: \{WindowNs: (\d+)`).FindStringSubmatch(ce.Setup)[1])
		n := uint64(0)
		for i, s := range ce.Steps[:last] {
			if s.Name == "Write" && s.Want == "nil" && latest[last]-latest[i] < window {
				n++
			}
		}
		name := ce.Steps[last].Name
		return (name == "AdjustCongestion" || name == "Status") &&
			all(msg, `At nowNs=`+numRE+` the congestion window holds (\d+) accepted writes? \(Low below (\d+), High above (\d+)\)`, func(q []uint64) bool {
				return q[0] == latest[last] && q[1] == n && q[2] == cfgU(ce, "LowBelow") && q[3] == cfgU(ce, "HighAbove")
			})
	}},
}

// changesLimit reports whether s sets or clears the override of addr
// (one that fails changes nothing).
func changesLimit(s report.Step, addr uint64) bool {
	return strings.HasSuffix(s.Name, "IssuerLimit") && arg(s.Args, "addr") == addr && !strings.Contains(s.Want, "error")
}

// gate is what the contract's throttle holds, replayed over every step of
// a counterexample but the last, for the claims that speak of its state:
// the state, with its automatic recovery, the load level and the global
// MaxCalls as AdjustCongestion answers and moves them.
type gate struct {
	state, level       string
	recoverAt, maxCall uint64
}

// gateBefore replays every step of ce but the last, then applies the last
// one's time (its automatic recovery).
func gateBefore(ce *report.Counterexample) gate {
	_, latest, given := clock(ce)
	auto := strings.Contains(ce.Setup, "AutoRecover: true")
	g := gate{state: "Normal", level: "NormalLoad", maxCall: cfgU(ce, "MaxCalls")}
	tick := func(now uint64) {
		if g.recoverAt != 0 && now >= g.recoverAt {
			g.state, g.recoverAt = "Normal", 0
		}
	}
	last := len(ce.Steps) - 1
	for i, s := range ce.Steps[:last] {
		if given[i] {
			tick(latest[i])
		}
		switch s.Name {
		case "SetState":
			g.state = strings.TrimSuffix(strings.TrimPrefix(strings.Fields(s.Call)[0], "SetState("), ",")
			g.recoverAt = 0
			if auto && g.state != "Normal" {
				g.recoverAt = latest[i] + cfgU(ce, "TTLNs")
				if g.recoverAt < latest[i] {
					g.recoverAt = math.MaxUint64
				}
			}
		case "AdjustCongestion":
			if s.Want == g.level {
				break
			}
			switch g.level = s.Want; g.level {
			case "High":
				g.maxCall -= g.maxCall * cfgU(ce, "ReduceBps") / 10000
			case "Low":
				g.maxCall += g.maxCall * cfgU(ce, "IncreaseBps") / 10000
			}
			g.maxCall = min(max(g.maxCall, cfgU(ce, "MinMaxCalls")), cfgU(ce, "MaxMaxCalls"))
		}
	}
	if given[last] {
		tick(latest[last])
	}
	return g
}

// cfgU is the config field name shown in ce's setup ("TTLNs: 1000") as a
// whole number.
func cfgU(ce *report.Counterexample, name string) uint64 {
	m := regexp.MustCompile(`\b` + name + `: (\d+)`).FindStringSubmatch(ce.Setup)
	if m == nil {
		return 0
	}
	return num(m[1])
}
