package breaker

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
)

// Traps: each check's failure must contain the mistake it names (see
// check.Property.Trap). Where the mistake is a kind of call, the same
// script without those calls (their waits kept) must be answered right,
// so the failure is those calls' doing.

// at returns the model as it stands at call last, its time applied, with
// prior the state before it was.
func at(s script, last int) *model {
	return walk(s, func(i int, _ op, _ uint64, _ *model, _ *modelTicket) bool { return i < last })
}

// consecutiveTrap: before the failing call a success reported in Closed
// set a count of failures above 0 back to 0, and the breaker never opened
// (so no other rule has played a part yet).
func consecutiveTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	last := t.Last()
	m := at(s, last)
	return m.resets > 0 && !m.everOpen
}

// openTimeoutTrap: the breaker is Open when the failing call comes (before
// its time is applied): whether that time ends the open period is the
// question.
func openTimeoutTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	last := t.Last()
	return at(s, last).prior == Open
}

// halfOpenTrap: the failing call comes in a half-open period that was
// already going on, or in an open period that a failed probe started and
// that this call does not end.
func halfOpenTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	last := t.Last()
	m := at(s, last)
	return m.prior == HalfOpen || m.prior == Open && m.state == Open && m.fromHalf
}

// staleOrBogus picks the reports of tickets of an earlier generation, or
// never issued.
func staleOrBogus(s script) []bool {
	out := make([]bool, len(s.Ops))
	walk(s, func(i int, o op, _ uint64, m *model, tk *modelTicket) bool {
		out[i] = o.Call == doneCall && (o.Bogus != issued || tk != nil && tk.gen != m.gen)
		return true
	})
	return out
}

// generationTrap: a stale ticket, or one never issued, was reported before
// the failing call, and the same script without those reports (which the
// contract ignores) is answered right.
func generationTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	drop := staleOrBogus(s)
	some := false
	for _, d := range drop[:last] {
		some = some || d
	}
	if !some {
		return false
	}
	alt := script{Setup: s.Setup}
	var wait uint64
	for i, o := range s.Ops {
		if i < last && drop[i] {
			wait = check.Saturating(wait, o.Wait)
			continue
		}
		o.Wait = check.Saturating(o.Wait, wait)
		wait = 0
		alt.Ops = append(alt.Ops, o)
	}
	return !replay(alt).Bad
}

// backwardTrap: a call up to the failing one stepped back, and the same
// script with every step back made at the latest time instead is answered
// right.
func backwardTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	some := false
	alt := script{Setup: s.Setup}
	for i, o := range s.Ops {
		if o.Back > 0 && i <= last {
			some = true
			o.Back, o.Wait = 0, 0
		}
		alt.Ops = append(alt.Ops, o)
	}
	return some && !replay(alt).Bad
}

// Explanations: the failing script's own numbers.

func explainConsecutive(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	var reports []string
	walk(s, func(i int, o op, _ uint64, m *model, tk *modelTicket) bool {
		if i < last && o.Call == doneCall && tk != nil && tk.gen == m.gen && m.state == Closed {
			r := "failure"
			if o.Success {
				r = "success"
			}
			reports = append(reports, fmt.Sprintf("%s (step %d)", r, i+1))
		}
		return i < last
	})
	n := s.Setup.Cfg.FailureThreshold
	return fmt.Sprintf("FailureThreshold is %d: the breaker opens on %d failures reported in a row. The reports so far are %s; every success starts the count again, so the count is %d here and the breaker is still Closed. %s",
		n, n, strings.Join(reports, ", "), at(s, last).failures, why)
}

func explainOpenTimeout(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	m := at(s, last)
	now := m.latest
	cfg := s.Setup.Cfg
	if end, ok := m.openEnd(); ok {
		when := "before it: still Open"
		if now >= end {
			when = "at or after it: HalfOpen"
		}
		return fmt.Sprintf("The breaker opened at nowNs=%s with OpenNs=%s, so its open period ends at %s exactly (at that instant it is already over). This call comes at %s, %s. %s",
			check.U(m.openedAt), check.U(cfg.OpenNs), check.U(end), check.U(now), when, why)
	}
	return fmt.Sprintf("The breaker opened at nowNs=%s with OpenNs=%s: their sum is past MaxUint64, so this open period never ends (a sum that wraps around ends it at once). %s",
		check.U(m.openedAt), check.U(cfg.OpenNs), why)
}

func explainHalfOpen(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	m := at(s, last)
	p := s.Setup.Cfg.HalfOpenProbes
	if m.prior == Open {
		return fmt.Sprintf("A probe failed in the half-open period, which opened the breaker again at nowNs=%s, for OpenNs=%s more: it stays Open until %s. %s",
			check.U(m.openedAt), check.U(s.Setup.Cfg.OpenNs), check.U(m.openedAt+s.Setup.Cfg.OpenNs), why)
	}
	return fmt.Sprintf("HalfOpenProbes is %d: in this half-open period Allow lets the first %d calls through and refuses the rest, and it takes %d successful probes to close the breaker. Here Allow had let %d through and %d succeeded before this call. %s",
		p, p, p, m.probes, m.successes, why)
}

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
			msg = fmt.Sprintf("The ticket reported at step %d was issued at step %d; the breaker has changed state since (last at step %d), so it belongs to an earlier generation: a late report that Done must ignore, whatever it says.", i+1, tk.step, m.changedAt+1)
		}
		return true
	})
	return fmt.Sprintf("%s Without that report the same calls are answered right. %s", msg, why)
}

func explainBackward(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	latest := s.Setup.Start
	for i, o := range s.Ops[:last+1] {
		now := o.At(latest)
		if o.Back > 0 {
			return fmt.Sprintf("At step %d the clock stepped back, from %s to %s: an earlier time counts as the latest one, so an open period started then starts at %s, and nothing is rewound. Made at the latest time instead, the same calls are answered right. %s",
				i+1, check.U(latest), check.U(now), check.U(latest), why)
		}
		latest = max(latest, now)
	}
	return why
}
