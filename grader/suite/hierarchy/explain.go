package hierarchy

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"ratelab/grader/check"
	gm "ratelab/grader/model"
)

// Explanations of a failure in the script's own numbers: what the
// contract's tree saw before the failing call, then the check's why.

// event is what the model saw at one call of a script.
type event struct {
	now      uint64
	refused  bool  // a TryAcquire the model refused (on a valid node)
	accepted bool  // a TryAcquire with n > 0 the model granted
	path     []int // the call's path, for a valid node
	advanced bool  // the call moved the clock forward
	bad      bool  // a bad Add, or a call on an id never returned
}

// events replays s on the model up to call last, included.
func events(s script, last int) ([]event, *model) {
	m := newModel(s.Setup.Start)
	var out []event
	latest := s.Setup.Start
	for _, o := range s.Ops[:last+1] {
		now := o.At(latest)
		e := event{now: now, advanced: o.Kind != add && now > latest}
		latest = max(latest, now)
		switch o.Kind {
		case add:
			_, p := m.Add(o.Node, o.N, o.Rate)
			e.bad = p != ""
		case available:
			m.Available(o.Node, now)
			e.bad = !m.Valid(o.Node)
		default:
			ok := m.TryAcquire(o.Node, now, o.N)
			e.bad = !m.Valid(o.Node)
			e.refused = !ok && !e.bad
			e.accepted = ok && o.N > 0 && !e.bad
		}
		if o.Kind != add && m.Valid(o.Node) {
			e.path = m.Path(o.Node)
		}
		out = append(out, e)
	}
	return out, m
}

// missed returns the nodes on call last's path that were off the path of
// an earlier call that moved the clock, with how long the clock moved
// while they were off it.
func missed(s script, last int) map[int]uint64 {
	ev, m := events(s, last)
	off := map[int]uint64{}
	prev := s.Setup.Start
	for _, e := range ev[:last+1] {
		if e.advanced {
			for id := range m.Len() {
				if !slices.Contains(e.path, id) {
					off[id] += e.now - prev
				}
			}
			prev = e.now
		}
	}
	out := map[int]uint64{}
	for _, id := range ev[last].path {
		if off[id] > 0 {
			out[id] = off[id]
		}
	}
	return out
}

// Explanations, in the script's own numbers.

func explainAllOrNothing(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	m := newModel(s.Setup.Start)
	var parts []string
	latest := s.Setup.Start
	for i, o := range s.Ops[:last] {
		now := o.At(latest)
		latest = max(latest, now)
		if o.Kind == acquire {
			m.Advance(now)
			if lack := m.Lacking(o.Node, o.N); m.Valid(o.Node) && len(lack) > 0 {
				var paid []string
				for _, id := range m.Path(o.Node) {
					if !slices.Contains(lack, id) {
						paid = append(paid, fmt.Sprint(id))
					}
				}
				p := fmt.Sprintf("call %d asked for %s tokens, which node %d did not hold", i+1, check.U(o.N), lack[0])
				if len(paid) > 0 {
					p += fmt.Sprintf(" (node %s could have paid)", strings.Join(paid, " and "))
				}
				parts = append(parts, p)
			}
		}
		apply(m, o, now)
	}
	if len(parts) == 0 {
		return why
	}
	return fmt.Sprintf("Here %s. %s", strings.Join(parts, "; "), why)
}

func explainShared(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	ev, _ := events(s, last)
	fail := ev[last].path
	var paid []string
	for i, e := range ev[:last] {
		if e.accepted {
			var above []string
			for _, n := range e.path[1:] {
				if slices.Contains(fail, n) {
					above = append(above, fmt.Sprint(n))
				}
			}
			if len(above) > 0 {
				paid = append(paid, fmt.Sprintf("call %d (node %d) also paid at node %s", i+1, s.Ops[i].Node, strings.Join(above, " and ")))
			}
		}
	}
	if len(paid) == 0 {
		return why
	}
	if len(paid) > 4 {
		paid = append(paid[:4], "…")
	}
	return fmt.Sprintf("Here %s, which is on the path of call %d. %s", strings.Join(paid, "; "), last+1, why)
}

func explainLazy(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	var parts []string
	for id, ns := range missed(s, last) {
		parts = append(parts, fmt.Sprintf("node %d was off the path for %s ns of the clock's advance", id, check.U(ns)))
	}
	slices.Sort(parts)
	if len(parts) == 0 {
		return why
	}
	return fmt.Sprintf("Here %s. %s", strings.Join(parts, "; "), why)
}

func explainBackward(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	var backs []string
	latest := s.Setup.Start
	for i, o := range s.Ops[:last+1] {
		now := o.At(latest)
		if o.Back > 0 {
			backs = append(backs, fmt.Sprintf("call %d stepped back from %s to %s", i+1, check.U(latest), check.U(now)))
		}
		latest = max(latest, now)
	}
	if len(backs) == 0 {
		return why
	}
	return fmt.Sprintf("Here %s. %s", strings.Join(backs, ", "), why)
}

func explainFractional(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	rate := uint64(0)
	var gaps []string
	earned := new(big.Int) // in units of 10^-9 token, exactly
	latest := s.Setup.Start
	for _, o := range s.Ops[:last+1] {
		if o.Kind == add {
			rate = o.Rate
			continue
		}
		now := o.At(latest)
		if now > latest {
			e := new(big.Int).Mul(new(big.Int).SetUint64(now-latest), new(big.Int).SetUint64(rate))
			earned.Add(earned, e)
			if len(gaps) < 4 {
				gaps = append(gaps, fmt.Sprintf("%s ns (%s of a token)", check.U(now-latest), gm.Tokens(e)))
			}
		}
		latest = max(latest, now)
	}
	if len(gaps) == 0 {
		return why
	}
	return fmt.Sprintf("The calls here came %s apart at %s tokens/s on every level: %s earned by the last call, in parts smaller than one token. %s", strings.Join(gaps, ", "), check.U(rate), gm.TokensOf(earned), why)
}

func explainAddErrors(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	ev, _ := events(s, last)
	var bad []string
	for i, e := range ev {
		if e.bad {
			bad = append(bad, fmt.Sprintf("call %d", i+1))
		}
	}
	if len(bad) == 0 {
		return why
	}
	return fmt.Sprintf("Here %s named a parent or a node that does not exist (or a parent at MaxDepth). %s", strings.Join(bad, ", "), why)
}
