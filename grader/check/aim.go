package check

import "fmt"

// Aim is what a suite's domain is for, beside how it draws its scripts:
// the property check whose corner it is, the mistake that check exists to
// catch, and how its failures are explained. A suite's domain type embeds
// it, so that every domain names its check where it is defined.
type Aim[S, O any] struct {
	Check string // the check's name: its id after "<exercise>/"
	// Explain, if set, explains the check's failures in place of the
	// suite's own Explain (see Property.Explain).
	Explain func(s Script[S, O], t Trace, why string) string
}

// Name is the name of the check a is for (see ByName).
func (a Aim[S, O]) Name() string { return a.Check }

// Property is the property of d's scripts for the check a is for: base
// holds what every property of the suite shares (ShrinkSetup, ShrinkOp,
// Merge, Explain), replay replays a script on the implementation, and a's
// Explain, if set, replaces base's.
func (a Aim[S, O]) Property(d Domain[S, O], base Property[S, O], replay func(Script[S, O]) Trace) Property[S, O] {
	p := Over(d, base.ShrinkSetup, base.ShrinkOp, replay)
	p.Merge, p.Explain = base.Merge, base.Explain
	if a.Explain != nil {
		p.Explain = a.Explain
	}
	return p
}

// ByName returns a suite's domains by the name of the property check each
// is the corner of (its Name). A name given twice, or none, is a mistake
// in the suite: it panics, and the suite's tests, which read the table,
// find it.
func ByName[D interface{ Name() string }](domains ...D) map[string]D {
	out := make(map[string]D, len(domains))
	for _, d := range domains {
		name := d.Name()
		if _, dup := out[name]; dup || name == "" {
			panic(fmt.Sprintf("check.ByName: a domain named %q is there twice, or has no name", name))
		}
		out[name] = d
	}
	return out
}
