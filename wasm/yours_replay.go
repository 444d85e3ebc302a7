//go:build !noyours && !oneweek

package main

import (
	"ratelab/exercises/governor"
	"ratelab/exercises/gradient2"
	"ratelab/lab/adaptive"
	"ratelab/lab/replay"
)

// ClearIssuerLimit passes the learner's ClearIssuerLimit through: the
// operator's console does not call it, a replay of a throttle
// counterexample does (lab/replay asks the gate for it).
func (y yoursGate) ClearIssuerLimit(addr uint64) { y.g.ClearIssuerLimit(addr) }

// yoursWeek4 returns the week 4 calls a replay needs beyond
// yoursAdaptive, from the learner's packages: the governor's pure Decide
// and MemoryClearStep, and Gradient2 with a QueueSize function.
func yoursWeek4() replay.Week4 {
	return replay.Week4{
		Decide: func(c adaptive.GovernorConfig, frac, current, lastBad float64) adaptive.Decision {
			d := governor.Decide(governor.Config{Floor: c.Floor, Ceiling: c.Ceiling, Start: c.Start, Low: c.Low, High: c.High}, frac, current, lastBad)
			return adaptive.Decision{Action: adaptive.Action(d.Action), Offer: d.Offer, LastBad: d.LastBad, Reason: d.Reason}
		},
		MemoryClearStep: governor.MemoryClearStep,
		NewLimit: func(c adaptive.LimitConfig, queueSize func(int) float64) adaptive.Limit {
			return gradient2.New(gradient2.Config{
				InitialLimit: c.InitialLimit, MinLimit: c.MinLimit, MaxLimit: c.MaxLimit,
				Smoothing: c.Smoothing, RTTTolerance: c.RTTTolerance, LongWindow: c.LongWindow, QueueSize: queueSize,
			})
		},
	}
}
