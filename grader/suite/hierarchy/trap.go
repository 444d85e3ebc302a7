package hierarchy

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"ratelab/grader/check"
)

// Traps: each check's failure must contain the mistake it names (see
// check.Property.Trap). Where the mistake is a kind of call (a refused
// message, a step back, a bad id), the same script without those calls,
// which the contract answers the same way, must pass, so that the failure
// is those calls' doing.

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
			_, p := m.add(o.Node, o.N, o.Rate)
			e.bad = p != ""
		case available:
			m.available(o.Node, now)
			e.bad = !m.valid(o.Node)
		default:
			ok := m.tryAcquire(o.Node, now, o.N)
			e.bad = !m.valid(o.Node)
			e.refused = !ok && !e.bad
			e.accepted = ok && o.N > 0 && !e.bad
		}
		if o.Kind != add && m.valid(o.Node) {
			e.path = m.path(o.Node)
		}
		out = append(out, e)
	}
	return out, m
}

// allOrNothingTrap: a TryAcquire before the failing call was refused, and
// with the refused calls made as Available calls instead (which take
// nothing either) the script passes.
func allOrNothingTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	ev, _ := events(s, last)
	alt := script{Setup: s.Setup, Ops: slices.Clone(s.Ops)}
	refused := false
	for i, e := range ev[:last] {
		if e.refused {
			refused = true
			alt.Ops[i].Kind, alt.Ops[i].N = available, 0
		}
	}
	return refused && !replay(alt).Bad
}

// sharedTrap: no TryAcquire was refused before the failing call, and an
// earlier granted one charged a node above its own that is on the failing
// call's path (a parent, shared or not, had to pay).
func sharedTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	last := t.Last()
	ev, _ := events(s, last)
	fail := ev[last].path
	for _, e := range ev[:last] {
		if e.refused {
			return false
		}
	}
	for _, e := range ev[:last] {
		if e.accepted {
			for _, n := range e.path[1:] {
				if slices.Contains(fail, n) {
					return true
				}
			}
		}
	}
	return false
}

// lazyTrap: a node on the failing call's path was off the path of a call
// that moved the clock, and the failing call finds too little there
// (Available lower than the model's, or a TryAcquire refused that should
// pass). In this check's scripts every refill is whole tokens and no
// request asks for more than is there, so only a lost refill errs that way.
func lazyTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	last := t.Last()
	if t.Panic != nil || len(missed(s, last)) == 0 {
		return false
	}
	st := t.Steps[last]
	if s.Ops[last].Kind == acquire {
		return st.Got == "false" && st.Want == "true"
	}
	var got, want uint64
	_, e1 := fmt.Sscan(strings.ReplaceAll(st.Got, "_", ""), &got)
	_, e2 := fmt.Sscan(strings.ReplaceAll(st.Want, "_", ""), &want)
	return s.Ops[last].Kind == available && e1 == nil && e2 == nil && got < want
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
			for id := range m.nodes {
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

// fractionalTrap: the failure comes after a call that earned part of a
// token, not on the first call after the Adds (the drain), whose failure
// is the tree's start.
func fractionalTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	last := t.Last()
	calls := 0
	for _, o := range s.Ops[:max(0, last+1)] {
		if o.Kind != add {
			calls++
		}
	}
	return s.Ops[last].Kind != add && calls >= 2
}

// overflowTrap: up to the failing call, a value of the contract's
// arithmetic left 64 bits (capacity×10^9, n×10^9, elapsed×rate) or a time
// saturated at MaxUint64. A failure on the first call after the Adds is
// overflow's only if the same tree with capacities of 1 passes a request
// for 1: otherwise the tree just did not start full.
func overflowTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if s.Ops[last].Kind == add {
		return false
	}
	first := slices.IndexFunc(s.Ops, func(o op) bool { return o.Kind != add })
	if last == first {
		small := script{Setup: s.Setup}
		for _, o := range s.Ops[:first] {
			o.N = 1
			small.Ops = append(small.Ops, o)
		}
		small.Ops = append(small.Ops, op{Node: s.Ops[first].Node, N: 1})
		if replay(small).Bad {
			return false
		}
	}
	limit := new(big.Int).Lsh(big.NewInt(1), 64)
	beyond := func(a, b uint64) bool {
		return new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)).Cmp(limit) >= 0
	}
	latest := s.Setup.Start
	var rates []uint64
	for _, o := range s.Ops[:last+1] {
		if o.Kind == add {
			if beyond(o.N, 1_000_000_000) {
				return true
			}
			rates = append(rates, o.Rate)
			continue
		}
		if o.Back == 0 && latest > ^uint64(0)-o.Wait {
			return true
		}
		now := o.At(latest)
		for _, r := range rates {
			if now > latest && beyond(now-latest, r) {
				return true
			}
		}
		if o.Kind == acquire && beyond(o.N, 1_000_000_000) {
			return true
		}
		latest = max(latest, now)
	}
	return false
}

// addErrorsTrap: up to the failing call, an Add was refused or a call named
// an id Add never returned, and without those (the bad Adds dropped, the
// calls made as Available on node 0 at the same time, which changes nothing
// but the clock, as they do) the script passes.
func addErrorsTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	ev, _ := events(s, len(s.Ops)-1)
	alt := script{Setup: s.Setup}
	bad := false
	nodes := 0
	for i, o := range s.Ops {
		if !ev[i].bad {
			if o.Kind == add {
				nodes++
			}
			alt.Ops = append(alt.Ops, o)
			continue
		}
		bad = bad || i <= last
		if o.Kind == add {
			continue
		}
		if nodes == 0 {
			return false
		}
		alt.Ops = append(alt.Ops, op{Kind: available, Node: 0, When: o.When})
	}
	return bad && !replay(alt).Bad
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
		switch o.Kind {
		case add:
			m.add(o.Node, o.N, o.Rate)
		case available:
			m.available(o.Node, now)
		default:
			m.advance(now)
			if lack := m.lacking(o.Node, o.N); m.valid(o.Node) && len(lack) > 0 {
				var paid []string
				for _, id := range m.path(o.Node) {
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
			m.tryAcquire(o.Node, now, o.N)
		}
	}
	return fmt.Sprintf("Here %s. Made as Available calls instead, the same script passes: the refused messages took something. %s", strings.Join(parts, "; "), why)
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
	return fmt.Sprintf("Here %s. Every refill here is a whole number of tokens and no request asks for more than is there, so what is missing is the refill of the time a node spent off the path. %s", strings.Join(parts, "; "), why)
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
	return fmt.Sprintf("Here %s. Made at the latest time instead, the same calls pass. %s", strings.Join(backs, ", "), why)
}

func explainFractional(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	rate := uint64(0)
	var gaps []string
	earned := 0.0
	latest := s.Setup.Start
	for _, o := range s.Ops[:last+1] {
		if o.Kind == add {
			rate = o.Rate
			continue
		}
		now := o.At(latest)
		if now > latest {
			e := float64(now-latest) * float64(rate) / 1e9
			earned += e
			if len(gaps) < 4 {
				gaps = append(gaps, fmt.Sprintf("%s ns (%.3g of a token)", check.U(now-latest), e))
			}
		}
		latest = max(latest, now)
	}
	if len(gaps) == 0 {
		return why
	}
	return fmt.Sprintf("The calls here came %s apart at %s tokens/s on every level: %.3g tokens earned by the last call, in parts smaller than one token. %s", strings.Join(gaps, ", "), check.U(rate), earned, why)
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
	return fmt.Sprintf("Here %s named a parent or a node that does not exist (or a parent at MaxDepth). Without them (the calls on unknown ids made on node 0 at the same time), the same script passes. %s", strings.Join(bad, ", "), why)
}
