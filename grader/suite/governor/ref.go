package governor

import ref "ratelab/solutions/governor"

// The reference, as the suite calls it: the calls of each replay are sent
// to the grading child ahead, as the reference makes them (see
// check.Ahead); the suite's tests grade it.

// refGovernor is the solution's Governor as the suite's.
type refGovernor struct{ g *ref.Governor }

func (a refGovernor) Observe(f, r uint64) Decision { return fromRef(a.g.Observe(f, r)) }
func (a refGovernor) Offer() float64               { return a.g.Offer() }
func (a refGovernor) LastBad() float64             { return a.g.LastBad() }

// toRef and fromRef convert between the suite's types and the solution's.
func toRef(c Config) ref.Config {
	return ref.Config(c)
}

func fromRef(d ref.Decision) Decision {
	return Decision{Action: Action(d.Action), Offer: d.Offer, LastBad: d.LastBad, Reason: d.Reason}
}

// reference is the solution as an Impl.
var reference = Impl{
	Decide: func(c Config, frac, current, lastBad float64) Decision {
		return fromRef(ref.Decide(toRef(c), frac, current, lastBad))
	},
	MemoryClearStep: ref.MemoryClearStep,
	New:             func(c Config) Governor { return refGovernor{ref.New(toRef(c))} },
}
