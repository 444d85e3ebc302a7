//go:build !noyours && (!oneweek || week4)

package main

import (
	"ratelab/exercises/governor"
	"ratelab/exercises/gradient2"
	"ratelab/lab/adaptive"
)

// yoursAdaptive returns the week 4 Impl built from the learner's exercises
// packages. Its code may panic (a stub panics with "not implemented"); the
// runs stop and say why.
func yoursAdaptive() adaptive.Impl {
	return adaptive.Impl{
		Name: "Yours",
		NewGovernor: func(c adaptive.GovernorConfig) adaptive.Governor {
			return yourGovernor{governor.New(governor.Config{Floor: c.Floor, Ceiling: c.Ceiling, Start: c.Start, Low: c.Low, High: c.High})}
		},
		NewLimit: func(c adaptive.LimitConfig) adaptive.Limit {
			return gradient2.New(gradient2.Config{
				InitialLimit: c.InitialLimit, MinLimit: c.MinLimit, MaxLimit: c.MaxLimit,
				Smoothing: c.Smoothing, RTTTolerance: c.RTTTolerance, LongWindow: c.LongWindow,
			})
		},
	}
}

// yourGovernor converts the learner's Decision to the lab's.
type yourGovernor struct{ g *governor.Governor }

func (y yourGovernor) Observe(cumFailures, cumResolved uint64) adaptive.Decision {
	d := y.g.Observe(cumFailures, cumResolved)
	return adaptive.Decision{Action: adaptive.Action(d.Action), Offer: d.Offer, LastBad: d.LastBad, Reason: d.Reason}
}

func (y yourGovernor) Offer() float64 { return y.g.Offer() }
