//go:build !noyours && (!oneweek || week1 || week2)

package main

import (
	"ratelab/exercises/gcra"
	"ratelab/exercises/slidingwindow"
	"ratelab/exercises/tokenbucket"
	"ratelab/lab/limiters"
)

// yours returns the Impl built from the learner's exercises packages. Its
// constructors and methods may panic (a stub panics with "not
// implemented"); the simulation stops the lane concerned and says why.
func yours() limiters.Impl {
	return limiters.Impl{
		Name: "Yours",
		NewBucket: func(capacity, ratePerSec, nowNs uint64) limiters.Bucket {
			return tokenbucket.New(capacity, ratePerSec, nowNs)
		},
		NewGCRA: func(ratePerSec, burst, nowNs uint64) limiters.GCRA {
			return gcra.New(ratePerSec, burst, nowNs)
		},
		NewWindow: func(limit uint32, windowNs uint64, buckets int) limiters.Window {
			return slidingwindow.New(limit, windowNs, buckets)
		},
	}
}
