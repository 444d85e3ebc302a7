package throttle

import (
	"fmt"

	"ratelab/grader/check"
	gm "ratelab/grader/model"
)

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
		m.Tick(now)
		rl := m.LimitOf(o.Addr)
		n := gm.CountInWindow(m.Writes[o.Addr], now, rl.WindowNs)
		whose := "the global limit"
		if _, ok := m.Overrides[o.Addr]; ok {
			whose = "its override"
		}
		white := ""
		if m.Whitelisted[o.Addr] {
			white = ", but it is whitelisted"
		}
		story += fmt.Sprintf("At nowNs=%s the gate is %s; address %d has %s in its window of %s ns, and %s allows %d%s. ",
			check.U(now), m.Current, o.Addr, writes(n), check.U(rl.WindowNs), whose, rl.MaxCalls, white)
	case adjustCall, statusCall:
		story += fmt.Sprintf("At nowNs=%s the congestion window holds %s (Low below %d, High above %d); the level was %s and the global MaxCalls %d before this call. ",
			check.U(now), writes(gm.CountInWindow(m.Accepted, now, m.Cfg.Congestion.WindowNs)), m.Cfg.Congestion.LowBelow, m.Cfg.Congestion.HighAbove, m.Level, m.MaxCalls)
	}
	return story + why
}

// writes is "n accepted writes", in the singular for one.
func writes(n uint64) string {
	if n == 1 {
		return "1 accepted write"
	}
	return fmt.Sprintf("%d accepted writes", n)
}

// run is what the model answers and knows at each call of s: for the
// explanations.
type run struct {
	now       []uint64 // each call's time (the clock after it)
	recovered []bool   // the call ended a period automatically
	recoverAt []uint64 // RecoverAtNs before the call
}

func modelRun(s script) run {
	m := newModel(s.Setup.Cfg, s.Setup.Start)
	var r run
	for o, now := range check.Times(s.Setup.Start, s.Ops) {
		r.recoverAt = append(r.recoverAt, m.RecoverAt)
		recovered := false
		if o.Call.timed() {
			m.Tick(now)
			recovered = m.Recovered
		}
		r.recovered = append(r.recovered, recovered)
		m.step(o, now)
		r.now = append(r.now, m.Latest)
	}
	return r
}
