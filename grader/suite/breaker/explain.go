package breaker

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
)

// Explanations: each describes, in the failing script's own numbers, what
// the contract's breaker had seen by the failing call, then gives the
// check's why.

// at returns the model as it stands at call last, its time applied, with
// prior the state before it was.
func at(s script, last int) *model {
	return walk(s, func(i int, _ op, _ uint64, _ *model, _ *modelTicket) bool { return i < last })
}

func reportWord(success bool) string {
	if success {
		return "success"
	}
	return "failure"
}

// explainConsecutive lists the reports counted in the closed period of
// the failing call: since New, or since the probes last closed the
// breaker (with a count of 0).
func explainConsecutive(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	var reports []string
	closedAt := -1 // the step whose report closed the breaker; -1: New
	walk(s, func(i int, o op, _ uint64, m *model, tk *modelTicket) bool {
		if i >= last {
			return false
		}
		if o.Call == doneCall && tk != nil && tk.gen == m.Gen {
			switch m.Current {
			case Closed:
				reports = append(reports, fmt.Sprintf("%s (step %d)", reportWord(o.Success), i+1))
			case HalfOpen:
				if o.Success && m.Successes+1 >= m.HalfOpenProbes {
					closedAt, reports = i, nil
				}
			}
		}
		return true
	})
	m := at(s, last)
	n := s.Setup.Cfg.FailureThreshold
	since := "since New"
	if closedAt >= 0 {
		since = fmt.Sprintf("since the probes closed it at step %d, which starts the count again from 0", closedAt+1)
	}
	if m.prior != Closed {
		return fmt.Sprintf("FailureThreshold is %d: the breaker opens on %d failures reported in a row while Closed; it is %s before this call. %s", n, n, m.prior, why)
	}
	counted := "none"
	if len(reports) > 0 {
		counted = strings.Join(reports, ", ")
	}
	return fmt.Sprintf("FailureThreshold is %d: the breaker opens on %d failures reported in a row while Closed. The reports counted %s are %s; every success starts the count again, so the count is %d here and the breaker is still Closed. %s",
		n, n, since, counted, m.Failures, why)
}

// explainOpenTimeout gives the open period's start and end, and where the
// failing call falls, if the breaker was Open when it came.
func explainOpenTimeout(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	m := at(s, last)
	if m.prior != Open {
		return why
	}
	now := m.Latest
	cfg := s.Setup.Cfg
	if end, ok := m.OpenEnd(); ok {
		when := "before it: still Open"
		if now >= end {
			when = "at or after it: HalfOpen"
		}
		return fmt.Sprintf("The breaker opened at nowNs=%s with OpenNs=%s, so its open period ends at %s exactly (at that instant it is already over). This call comes at %s, %s. %s",
			check.U(m.OpenedAt), check.U(cfg.OpenNs), check.U(end), check.U(now), when, why)
	}
	return fmt.Sprintf("The breaker opened at nowNs=%s with OpenNs=%s: their sum is past MaxUint64, so this open period never ends (a sum that wraps around ends it at once). %s",
		check.U(m.OpenedAt), check.U(cfg.OpenNs), why)
}

// explainHalfOpen counts the probes of the half-open period of the failing
// call, or gives the open period a failed probe started.
func explainHalfOpen(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	m := at(s, last)
	p := s.Setup.Cfg.HalfOpenProbes
	switch {
	case m.prior == Open && m.FromHalf:
		end := "never ends"
		if e, ok := m.OpenEnd(); ok {
			end = "ends at " + check.U(e)
		}
		return fmt.Sprintf("A probe failed in the half-open period, which opened the breaker again at nowNs=%s, for OpenNs=%s more: that open period %s. %s",
			check.U(m.OpenedAt), check.U(s.Setup.Cfg.OpenNs), end, why)
	case m.Current == HalfOpen:
		return fmt.Sprintf("HalfOpenProbes is %d: in this half-open period Allow lets the first %d calls through and refuses the rest, and it takes %d successful probes to close the breaker. Here Allow had let %d through and %d succeeded before this call. %s",
			p, p, p, m.Probes, m.Successes, why)
	}
	return why
}

// staleOrBogus picks the reports of tickets of an earlier generation, or
// never issued.
func staleOrBogus(s script) []bool {
	out := make([]bool, len(s.Ops))
	walk(s, func(i int, o op, _ uint64, m *model, tk *modelTicket) bool {
		out[i] = o.Call == doneCall && (o.Bogus != issued || tk != nil && tk.gen != m.Gen)
		return true
	})
	return out
}

// explainGeneration names the first report before the failing call that
// Done must ignore, if there is one.
func explainGeneration(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	drop := staleOrBogus(s)
	msg := ""
	walk(s, func(i int, o op, _ uint64, m *model, tk *modelTicket) bool {
		if i >= last || msg != "" {
			return false
		}
		if drop[i] && o.Bogus != issued {
			msg = fmt.Sprintf("The ticket reported at step %d is one Allow never issued: Done must ignore it.", i+1)
		} else if drop[i] {
			msg = fmt.Sprintf("The ticket reported at step %d was issued at step %d; the breaker has changed state since (last at step %d), so it belongs to an earlier generation: a late report that Done must ignore, whatever it says.", i+1, tk.step, m.ChangedAt+1)
		}
		return true
	})
	if msg == "" {
		return why
	}
	return msg + " " + why
}

// explainBackward names the first step back in time before the failing
// call, if there is one.
func explainBackward(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	latest := s.Setup.Start
	for i, o := range s.Ops[:last+1] {
		now := o.At(latest)
		if o.Back > 0 {
			return fmt.Sprintf("At step %d the clock stepped back, from %s to %s: an earlier time counts as the latest one, so an open period started then starts at %s, and nothing is rewound. %s",
				i+1, check.U(latest), check.U(now), check.U(latest), why)
		}
		latest = max(latest, now)
	}
	return why
}
