package limiters

import (
	"ratelab/solutions/gcra"
	"ratelab/solutions/slidingwindow"
	"ratelab/solutions/tokenbucket"
)

// Bucket is the API of the week 1 token bucket exercise.
type Bucket interface {
	TryAcquire(nowNs, n uint64) bool
	Available(nowNs uint64) uint64
}

// GCRA is the API of the week 1 GCRA exercise.
type GCRA interface {
	TryAcquire(nowNs uint64) bool
}

// Window is the API of the week 2 bucketed sliding window exercise.
type Window interface {
	Count(nowNs uint64) uint32
	TryAcquire(nowNs uint64) bool
}

// Impl is one implementation of the three exercise types: a constructor for
// each, with the signature of the exercise package's New. A nil constructor
// means that type is unavailable, and Missing says why.
//
// The lab builds Reference from the solutions packages. The WebAssembly
// shell builds another Impl, "Yours", from the learner's exercises packages.
// Constructors and methods of an Impl other than Reference may panic; the
// simulation catches that and stops the limiter concerned.
type Impl struct {
	Name string // shown to the learner, e.g. "Reference" or "Yours"

	NewBucket func(capacity, ratePerSec, nowNs uint64) Bucket
	NewGCRA   func(ratePerSec, burst, nowNs uint64) GCRA
	NewWindow func(limit uint32, windowNs uint64, buckets int) Window

	// Missing says why a nil constructor is nil, e.g. "your code does not
	// build".
	Missing string

	// Exact reports whether a Bucket from NewBucket may be asked Available
	// at any time without changing a later decision. It holds for an exact
	// bucket; a learner's bucket may round at every call, so the lab asks it
	// only at the time of its latest call, where asking adds nothing.
	Exact bool
}

// Reference is the Impl built from the solutions packages.
var Reference = Impl{
	Name: "Reference",
	NewBucket: func(capacity, ratePerSec, nowNs uint64) Bucket {
		return tokenbucket.New(capacity, ratePerSec, nowNs)
	},
	NewGCRA: func(ratePerSec, burst, nowNs uint64) GCRA {
		return gcra.New(ratePerSec, burst, nowNs)
	},
	NewWindow: func(limit uint32, windowNs uint64, buckets int) Window {
		return slidingwindow.New(limit, windowNs, buckets)
	},
	Exact: true,
}
