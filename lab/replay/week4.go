package replay

import (
	"ratelab/lab/adaptive"
	"ratelab/solutions/governor"
	"ratelab/solutions/gradient2"
)

// week4Reference is Week4 of the solutions packages.
var week4Reference = Week4{
	Decide: func(c adaptive.GovernorConfig, frac, current, lastBad float64) adaptive.Decision {
		d := governor.Decide(governor.Config(c), frac, current, lastBad)
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
