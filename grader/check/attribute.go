package check

import (
	"math/rand"
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
	if !ok || f.Own || f.Status != report.Failed && f.Status != report.Error {
		return
	}
	prose, err := ParseProse(p.Prose)
	if err != nil {
		return
	}
	f.Attributed, f.Key, f.Details = true, findingKey(f), map[string]string{}
	right := func(n Script[S, O]) bool {
		t, pn := Call(func() Trace { return replay(n) })
		return pn == nil && !t.Bad && t.Panic == nil
	}
	setupPanic := f.trace.Panic != nil && len(f.trace.Steps) == 0
	for _, pr := range prose {
		if pr.Kind == report.Benchmark || p.Fixed[pr.Name] != nil {
			continue
		}
		trap, declared := p.Traps[pr.Name]
		if pr.Pitfall == Exactness && !declared {
			trap, declared = Always[S, O](), true
		}
		has := !declared && pr.Name == self
		if declared {
			h, pn := Call(func() bool { return trap.Has(s) })
			has = pn == nil && h
		}
		if !has {
			continue
		}
		f.Holds = append(f.Holds, pr.Name)
		f.Details[pr.Name] = p.detail(impl, pr, s, f.trace)
		// Does the difference need this trap? Without a neutraliser only
		// the check's own trap can keep it; with one, the neutralised
		// script answered right says so. A panic of New needs no call's
		// feature: it is the arguments'.
		needs := !setupPanic && pr.Name == self
		if declared && trap.Neutral != nil {
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
	} else if d, ok := f.Details[exactnessName(prose)]; ok {
		f.Detail = d
	}
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

// plain returns how many of RefuteScripts scripts drawn with seed from
// the exactness check's domain (plain scripts, no trap singled out) impl
// answers right, call for call to their end, and how many it drew: an
// implementation that answers hardly any right is wrong everywhere, and
// no check whose differences are charged elsewhere can credit it (see
// Suite.Judge).
func (p Parts[I, D, S, O]) plain(impl I, replay func(Script[S, O]) Trace, seed int64) (right, drawn int) {
	prose, err := ParseProse(p.Prose)
	if err != nil {
		return 0, 0
	}
	gen, found := p.gen(p.Exercise+"/"+exactnessName(prose), impl)
	if !found {
		return 0, 0
	}
	r := rand.New(rand.NewSource(seed))
	for range RefuteScripts {
		s, pn := Call(func() Script[S, O] { return gen(r, 50) })
		if pn != nil {
			break
		}
		drawn++
		if t, pn := Call(func() Trace { return replay(s) }); pn == nil && !t.Bad && t.Panic == nil {
			right++
		}
	}
	return right, drawn
}

// findingKey is what two findings of one mistake share: a panic of the
// same call with the same value, or the same counterexample answered the
// same way.
func findingKey(f *Finding) string {
	t := f.trace
	if t.Panic != nil {
		call := "New"
		if n := len(t.Steps); n > 0 {
			call = callName(t.Steps[n-1].Call)
		}
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
