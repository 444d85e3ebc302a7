package check

import (
	"math/rand"
	"slices"
	"strings"

	"ratelab/grader/report"
)

// attributed wraps the Runner of the check named name so that every
// finding it reports is attributed (see attribute).
func (p Parts[I, D, S, O]) attributed(impl I, replay func(Script[S, O]) Trace, name string, run Runner) Runner {
	return func(why string) func(int64) Outcome {
		inner := run(why)
		return func(seed int64) Outcome {
			o := inner(seed)
			for i := range o.Findings {
				p.attribute(impl, replay, name, &o.Findings[i])
			}
			return o
		}
	}
}

// attribute settles where the difference of f, a finding of the check
// named self, comes from (see Trap and Finding.Stays): whether self's trap
// causes it, which other checks' traps it needs, which traps its script
// holds, and what each of those checks (and exactness) says of it.
func (p Parts[I, D, S, O]) attribute(impl I, replay func(Script[S, O]) Trace, self string, f *Finding) {
	s, ok := f.script.(Script[S, O])
	if !ok || f.Own || f.Status != report.Failed && f.Status != report.Error && f.Status != report.Timeout {
		return
	}
	s = Upto(s, f.trace)
	prose, err := ParseProse(p.Prose)
	if err != nil {
		return
	}
	if i := slices.IndexFunc(prose, func(pr Prose) bool { return pr.Name == self }); i >= 0 && f.Status == report.Failed && len(f.Mistakes) == 0 {
		if trap, ok := p.trapOf(prose[i]); ok {
			if v, t, found := p.trapless(impl, replay, self, trap, s); found {
				// The difference stays without the trap: it is shown on
				// the script without it, where a mistake may explain it.
				g := finding(t, f.Detail)
				f.Head, f.Counterexample, f.script, f.trace = g.Head, g.Counterexample, v, t
				f.Mistakes = Diagnoser(p.Mistakes, p.Replay)(v, t)
				s = v
			}
		}
	}
	f.Attributed, f.Key, f.Details = true, findingKey(f), map[string]string{}
	exact := exactnessName(prose)
	right := func(n Script[S, O]) bool {
		t, pn := Call(func() Trace { return replay(n) })
		return pn == nil && !t.Bad && t.Panic == nil
	}
	setupPanic := f.trace.Panic != nil && len(f.trace.Steps) == 0
	// A call that did not return is not replayed again (each replay that
	// meets it costs the CPU time a call may take): it stays with the
	// check whose trap its script holds, and needs no other's.
	hung := f.trace.Hung()
	for _, pr := range prose {
		if pr.Kind == report.Benchmark || p.Fixed[pr.Name] != nil {
			continue
		}
		trap, declared := p.trapOf(pr)
		has := !declared && pr.Name == self
		if declared {
			h, pn := Call(func() bool { return trap.Has(s) })
			has = pn == nil && h
		}
		if !has {
			continue
		}
		f.Holds = append(f.Holds, pr.Name)
		if pr.Name == self || pr.Name == exact {
			f.Details[pr.Name] = p.detail(impl, pr, s, f.trace)
		}
		// Does the difference need this trap? Without a neutraliser only
		// the check's own trap can keep it; with one, the neutralised
		// script answered right says so. A panic of New needs no call's
		// feature: it is the arguments'.
		needs := !setupPanic && pr.Name == self
		if declared && trap.Neutral != nil && !hung {
			n, ok := trap.Neutral(s)
			needs = ok && !setupPanic && right(n)
		}
		switch {
		case pr.Name == self:
			f.Stays = needs
		case needs && trap.Neutral != nil:
			f.Needs = append(f.Needs, pr.Name)
		}
	}
	// The words of the check that found it are kept only where its trap
	// is in the script; elsewhere it says what exactness says.
	if d, ok := f.Details[self]; ok {
		f.Detail = d
	} else if d, ok := f.Details[exact]; ok {
		f.Detail = d
	}
}

// trapOf returns the trap of the check of prose pr: the one the suite
// declares (Traps), else Always for a check of pitfall exactness, else the
// trap its pitfall's mistakes fall into (a script holds it when the model
// of one of those mistakes answers some call of it differently from the
// contract: the script exercises the rule they break), else none.
func (p Parts[I, D, S, O]) trapOf(pr Prose) (Trap[S, O], bool) {
	if t, ok := p.Traps[pr.Name]; ok {
		return t, true
	}
	if pr.Pitfall == Exactness {
		return Always[S, O](), true
	}
	var models []I
	for _, m := range p.Mistakes {
		if m.Pitfall == pr.Pitfall {
			models = append(models, m.Impl)
		}
	}
	if len(models) == 0 {
		return Trap[S, O]{}, false
	}
	return Trap[S, O]{Has: func(s Script[S, O]) bool {
		s.Full = false
		for _, m := range models {
			if t, pn := Call(func() Trace { return p.Replay(m, s) }); pn == nil && t.Bad {
				return true
			}
		}
		return false
	}}, true
}

// caused returns, for the check named name, whether a failing script's
// difference is caused by the check's trap (see Trap): the script holds
// it and, where it has a neutraliser, impl answers the neutralised script
// right. A check without a trap causes every difference it finds.
func (p Parts[I, D, S, O]) caused(replay func(Script[S, O]) Trace, name string) func(Script[S, O]) bool {
	prose, err := ParseProse(p.Prose)
	if err != nil {
		return nil
	}
	i := slices.IndexFunc(prose, func(pr Prose) bool { return pr.Name == name })
	if i < 0 {
		return nil
	}
	trap, declared := p.trapOf(prose[i])
	if !declared {
		return nil
	}
	return func(s Script[S, O]) bool {
		if h, pn := Call(func() bool { return trap.Has(s) }); pn != nil || !h {
			return false
		}
		if trap.Neutral == nil {
			return true
		}
		n, ok := trap.Neutral(s)
		if !ok {
			return false
		}
		t, pn := Call(func() Trace { return replay(n) })
		return pn == nil && !t.Bad && t.Panic == nil
	}
}

// Upto is s cut after the call its trace t ends on (a replay stops at the
// first call that differs): a trap is looked for in the calls the
// counterexample shows, not in those after it.
func Upto[S, O any](s Script[S, O], t Trace) Script[S, O] {
	if !t.Full && len(t.Steps) < len(s.Ops) {
		s.Ops = s.Ops[:len(t.Steps)]
	}
	return s
}

// trapless returns a script that fails as s does (a wrong answer, no
// panic) without trap, if there is one: s neutralised, where trap has a
// Neutral that can rewrite s, else one that withoutTrap finds.
func (p Parts[I, D, S, O]) trapless(impl I, replay func(Script[S, O]) Trace, self string, trap Trap[S, O], s Script[S, O]) (Script[S, O], Trace, bool) {
	if trap.Neutral == nil {
		return p.withoutTrap(impl, replay, self, trap, s)
	}
	n, ok := trap.Neutral(s)
	if !ok {
		return p.withoutTrap(impl, replay, self, trap, s)
	}
	t, pn := Call(func() Trace { return replay(n) })
	if pn != nil || !t.Bad || t.Panic != nil {
		return s, Trace{}, false
	}
	return Upto(n, t), t, true
}

// TraplessTries bounds the replays withoutTrap makes for one finding.
const TraplessTries = 200

// withoutTrap looks for a script that fails as s does but does not hold
// trap: among the scripts the check's
// shrinker makes of s, then of the first of them that still fails with
// the trap, and so on (at most TraplessTries replays), each within the
// check's domain or the exactness check's. This is the neutraliser of a
// trap that has none of its own: vary the script, and see whether the
// difference stays once the trap is gone.
func (p Parts[I, D, S, O]) withoutTrap(impl I, replay func(Script[S, O]) Trace, self string, trap Trap[S, O], s Script[S, O]) (Script[S, O], Trace, bool) {
	d, ok := p.Domains[self]
	if !ok {
		return s, Trace{}, false
	}
	q := p.Property(d, impl)
	valid := []func(Script[S, O]) bool{q.Valid}
	prose, _ := ParseProse(p.Prose)
	if dx, ok := p.Domains[exactnessName(prose)]; ok {
		valid = append(valid, p.Property(dx, impl).Valid)
	}
	legal := func(c Script[S, O]) bool {
		return slices.ContainsFunc(valid, func(v func(Script[S, O]) bool) bool { return v == nil || v(c) })
	}
	tries := 0
	for cur := s; tries < TraplessTries; {
		// Every script the shrinker makes of cur is tried for one
		// without the trap; the first that keeps it and still fails is
		// where the next round starts.
		next, deeper, found := q.shrinker(cur), Script[S, O]{}, false
		for tries < TraplessTries {
			v, ok := next()
			if !ok {
				break
			}
			c := v.(Script[S, O])
			if !legal(c) {
				continue
			}
			tries++
			t, pn := Call(func() Trace { return replay(c) })
			if pn != nil || !t.Bad || t.Panic != nil {
				continue
			}
			c = Upto(c, t)
			if has, pn := Call(func() bool { return trap.Has(c) }); pn == nil && !has {
				return c, t, true
			}
			if !found {
				deeper, found = c, true
			}
		}
		if !found {
			break
		}
		cur = deeper
	}
	return s, Trace{}, false
}

// detail is what the check of prose pr says of a difference on s with
// trace t: its property's Explain in the script's numbers, or its why.
func (p Parts[I, D, S, O]) detail(impl I, pr Prose, s Script[S, O], t Trace) string {
	d, ok := p.Domains[pr.Name]
	if !ok || pr.Kind != report.Property {
		return pr.Why
	}
	explain := p.Property(d, impl).Explain
	if explain == nil {
		return pr.Why
	}
	text, pn := Call(func() string { return explain(s, t, pr.Why) })
	if pn != nil {
		return pr.Why
	}
	return text
}

// Plain is how an implementation answers plain scripts (the exactness
// check's domain, no trap singled out), each replayed to its end: how many
// of the scripts drawn it answers right throughout, and, for each method
// with an answer, how many of its calls it answers right; and, of the
// scripts it answers wrong (Wrong, panics aside), how many each mistake's
// model gives every answer of.
type Plain struct {
	Right, Drawn int
	Calls        map[string][2]int // method: right, made
	Wrong        int
	Explained    map[string]int // mistake: wrong scripts its model explains
}

// WrongEverywhere reports whether p is that of an implementation wrong
// everywhere: fewer than one in PlainShare scripts right, and no method
// right on three calls in four, and no mistake of named (those charged)
// whose model gives the answers of half the scripts it gets wrong or
// more. Constant and stub-like implementations are; one mistake that shows
// in most scripts, beside a method that is right or named, is not (a
// bucket that never caps is wrong on nearly every plain script, and that
// is its mistake, charged once).
func (p Plain) WrongEverywhere(named []string) bool {
	if p.Drawn == 0 || p.Right*PlainShare >= p.Drawn {
		return false
	}
	for _, c := range p.Calls {
		if 4*c[0] >= 3*c[1] {
			return false
		}
	}
	for _, m := range named {
		if p.Wrong > 0 && 2*p.Explained[m] >= p.Wrong {
			return false
		}
	}
	return true
}

// plain replays RefuteScripts scripts drawn with seed from the exactness
// check's domain on impl, to their end (see Plain).
func (p Parts[I, D, S, O]) plain(impl I, replay func(Script[S, O]) Trace, seed int64) Plain {
	out := Plain{Calls: map[string][2]int{}, Explained: map[string]int{}}
	diagnose := Diagnoser(p.Mistakes, p.Replay)
	prose, err := ParseProse(p.Prose)
	if err != nil {
		return out
	}
	gen, found := p.gen(p.Exercise+"/"+exactnessName(prose), impl)
	if !found {
		return out
	}
	r := rand.New(rand.NewSource(seed))
	for range RefuteScripts {
		s, pn := Call(func() Script[S, O] { return gen(r, 50) })
		if pn != nil {
			break
		}
		s.Full = true
		t, pn := Call(func() Trace { return replay(s) })
		if t.Hung() {
			// A call that did not return is charged on its own, and
			// each replay that meets one costs the CPU time a call may
			// take: the scripts drawn so far are all there is to tell.
			break
		}
		out.Drawn++
		if pn != nil {
			continue
		}
		switch {
		case !t.Bad && t.Panic == nil:
			out.Right++
		case t.Panic == nil:
			out.Wrong++
			for _, m := range diagnose(s, t) {
				out.Explained[m]++
			}
		}
		for i, st := range t.Steps {
			if st.Got == "" && st.Want == "" {
				continue // a call with no answer
			}
			c := out.Calls[callName(st.Call)]
			c[1]++
			if st.Got == st.Want && !(t.Panic != nil && i == len(t.Steps)-1) {
				c[0]++
			}
			out.Calls[callName(st.Call)] = c
		}
	}
	return out
}

// findingKey is what two findings of one mistake share: a panic of the
// same call with the same value, a call of the same method that did not
// return (whatever its arguments: checks draw different ones), or the
// same counterexample answered the same way.
func findingKey(f *Finding) string {
	t := f.trace
	call := "New"
	if n := len(t.Steps); n > 0 {
		call = callName(t.Steps[n-1].Call)
	}
	switch {
	case t.Hung():
		return "no return " + call
	case t.Panic != nil:
		return "panic " + call + ": " + t.Panic.Error()
	}
	var b strings.Builder
	b.WriteString(t.Setup)
	for _, st := range t.Steps {
		b.WriteString("\n" + st.Call + " = " + st.Got + " / " + st.Want)
	}
	return b.String()
}

// exactnessName is the name of the check of pitfall exactness that is a
// property (the catch-all), or "exactness".
func exactnessName(prose []Prose) string {
	for _, pr := range prose {
		if pr.Pitfall == Exactness && pr.Kind == report.Property {
			return pr.Name
		}
	}
	return Exactness
}
