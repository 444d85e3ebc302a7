package throttle

import (
	"fmt"
	"math"
	"slices"

	"ratelab/grader/check"
)

// Traps: each check's failure must contain the mistake it names (see
// check.Property.Trap). Where the mistake is a kind of call, the same
// script without those calls (their waits kept) must be answered right,
// so the failure is those calls' doing.

func is(c call) func(int, op) bool { return func(_ int, o op) bool { return o.Call == c } }

// needsRefused reports whether the failure goes away without the writes
// the contract refuses before the failing call: they count nowhere, so
// removing them changes no answer of the contract; a failure that needs
// them is rate-window's (refused writes counted).
func needsRefused(s script, last int, replay func(script) check.Trace) bool {
	r := modelRun(s)
	refused := func(i int, o op) bool { return o.Call == writeCall && r.want[i] != "nil" }
	return check.PassesWithout(s, last, refused, replay)
}

// ends reports whether the failing step is a call c with got and want as
// keep says.
func ends(s script, t check.Trace, c call, keep func(got, want string) bool) bool {
	last := t.Last()
	if t.Panic != nil || s.Ops[last].Call != c {
		return false
	}
	st := t.Steps[last]
	return keep(st.Got, st.Want)
}

// gateLike reports whether the failing call is a write the contract
// accepts, refused at level High: congestion-not-a-gate's failure, which
// the checks of the rate limit leave to it.
func gateLike(s script, t check.Trace) bool {
	last := t.Last()
	if !ends(s, t, writeCall, func(got, want string) bool { return want == "nil" && got != "nil" }) {
		return false
	}
	m := newModel(s.Setup.Cfg, s.Setup.Start)
	r := modelRun(s)
	for i, o := range s.Ops[:last] {
		m.step(o, r.now[i])
	}
	return m.level == High
}

// applies returns the refusals the contract has in force for the write
// that is call last of s (several at once, for precedence).
func applies(s script, last int) []string {
	m := newModel(s.Setup.Cfg, s.Setup.Start)
	r := modelRun(s)
	for i, o := range s.Ops[:last] {
		m.step(o, r.now[i])
	}
	now, addr := m.tick(r.now[last]), s.Ops[last].Addr
	var out []string
	if m.state == Paused {
		out = append(out, "ErrPaused")
	}
	if m.state == Degraded && m.degradedWrites >= m.cfg.Breaker.DegradedWriteLimit {
		out = append(out, "ErrDegradedLimit")
	}
	if rl := m.limitOf(addr); !m.whitelisted[addr] && inWindow(m.writes[addr], now, rl.WindowNs) >= uint64(rl.MaxCalls) {
		out = append(out, "ErrRateLimited")
	}
	return out
}

// recoverTrap: a period ended automatically at a call up to the failing
// one, and with AutoRecover off and SetState(Normal) made at each
// RecoverAtNs instead, the same calls are answered right.
func recoverTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	r := modelRun(s)
	if !slices.Contains(r.recovered[:last+1], true) {
		return false
	}
	alt := script{Setup: s.Setup}
	alt.Setup.Cfg.Breaker.AutoRecover = false
	latest := s.Setup.Start
	for i, o := range s.Ops {
		if o.Back > 0 {
			return false
		}
		if r.recovered[i] {
			at := r.recoverAt[i]
			alt.Ops = append(alt.Ops, op{Call: stateCall, State: Normal, When: check.When{Wait: at - latest}})
			o.Wait = r.now[i] - at
		}
		latest = r.now[i]
		alt.Ops = append(alt.Ops, o)
	}
	return !replay(alt).Bad
}

// pauseTrap: a write the pause must refuse was let through.
func pauseTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	return ends(s, t, writeCall, func(got, want string) bool { return want == "ErrPaused" && got == "nil" })
}

// whitelistTrap: an address was whitelisted before the failing call, and
// without the SetWhitelisted calls the same script is answered right.
func whitelistTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if t.Panic != nil {
		return false
	}
	on := slices.ContainsFunc(s.Ops[:last], func(o op) bool { return o.Call == whiteCall && o.On })
	return on && !gateLike(s, t) && check.PassesWithout(s, last, is(whiteCall), replay) && !needsRefused(s, last, replay)
}

// overrideTrap: without the SetIssuerLimit and ClearIssuerLimit calls
// before the failing one the same script is answered right, and the
// failure does not need the refused writes.
func overrideTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if !ends(s, t, writeCall, func(string, string) bool { return true }) || gateLike(s, t) {
		return false
	}
	limits := func(_ int, o op) bool { return o.Call == limitCall || o.Call == clearCall }
	return check.PassesWithout(s, last, limits, replay) && !needsRefused(s, last, replay)
}

// rateTrap: a write is answered wrong while every move of the global limit
// before it was shown right by the Status that follows it.
func rateTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	last := t.Last()
	if !ends(s, t, writeCall, func(string, string) bool { return true }) || gateLike(s, t) {
		return false
	}
	for i, o := range s.Ops[:last] {
		if o.Call == adjustCall && (i+1 >= last || s.Ops[i+1].Call != statusCall) {
			return false
		}
	}
	return true
}

// gateTrap: a write the contract accepts is refused, and with congestion
// thresholds that never leave NormalLoad the same calls are answered
// right.
func gateTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	if !ends(s, t, writeCall, func(got, want string) bool { return want == "nil" && got != "nil" }) {
		return false
	}
	alt := script{Setup: s.Setup, Ops: s.Ops}
	alt.Setup.Cfg.Congestion.LowBelow, alt.Setup.Cfg.Congestion.HighAbove = 0, math.MaxUint32
	return !replay(alt).Bad
}

// stepTrap: a Status differs in the global MaxCalls alone.
func stepTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	return ends(s, t, statusCall, func(got, want string) bool { return slices.Equal(statusDiff(got, want), []string{"MaxCalls"}) })
}

// degradedTrap: a write is let through or refused by the degraded cap
// against the contract, or a Status differs in DegradedWrites alone.
func degradedTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	return ends(s, t, writeCall, func(got, want string) bool {
		return got == "nil" && want == "ErrDegradedLimit" || got == "ErrDegradedLimit" && want == "nil"
	}) || ends(s, t, statusCall, func(got, want string) bool { return slices.Equal(statusDiff(got, want), []string{"DegradedWrites"}) })
}

// precedenceTrap: several refusals are in force at the failing write,
// and it answers with one of them, not the first.
func precedenceTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	return ends(s, t, writeCall, func(got, want string) bool {
		in := applies(s, t.Last())
		return got != want && len(in) > 1 && slices.Contains(in, got)
	})
}

// statusTrap: a Status is wrong in more than what congestion-step
// (MaxCalls alone) and degraded-period (DegradedWrites alone) look at.
func statusTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	return ends(s, t, statusCall, func(got, want string) bool {
		d := statusDiff(got, want)
		return !slices.Equal(d, []string{"MaxCalls"}) && !slices.Equal(d, []string{"DegradedWrites"})
	})
}

// explain tells the story of the failing call in the script's own
// numbers, before the check's explanation.
func explain(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 || t.Panic != nil {
		return why
	}
	r := modelRun(s)
	m := newModel(s.Setup.Cfg, s.Setup.Start)
	for i, o := range s.Ops[:last] {
		m.step(o, r.now[i])
	}
	o, now := s.Ops[last], r.now[last]
	story := ""
	for i := range last + 1 {
		if r.recovered[i] {
			story = fmt.Sprintf("The period pending until RecoverAtNs=%s was over at nowNs=%s. ", check.U(r.recoverAt[i]), check.U(r.now[i]))
		}
	}
	switch o.Call {
	case writeCall:
		m.tick(now)
		rl := m.limitOf(o.Addr)
		n := inWindow(m.writes[o.Addr], now, rl.WindowNs)
		whose := "the global limit"
		if _, ok := m.overrides[o.Addr]; ok {
			whose = "its override"
		}
		white := ""
		if m.whitelisted[o.Addr] {
			white = ", but it is whitelisted"
		}
		story += fmt.Sprintf("At nowNs=%s the gate is %s; address %d has %d accepted writes in its window of %s ns, and %s allows %d%s. ",
			check.U(now), m.state, o.Addr, n, check.U(rl.WindowNs), whose, rl.MaxCalls, white)
	case adjustCall, statusCall:
		story += fmt.Sprintf("At nowNs=%s the congestion window holds %d accepted writes (Low below %d, High above %d); the level was %s and the global MaxCalls %d before this call. ",
			check.U(now), inWindow(m.accepted, now, m.cfg.Congestion.WindowNs), m.cfg.Congestion.LowBelow, m.cfg.Congestion.HighAbove, m.level, m.maxCalls)
	}
	return story + why
}
