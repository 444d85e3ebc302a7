package tokenbucket

import (
	_ "embed"

	"ratelab/grader/check"
)

// Bucket is the token bucket API every implementation offers.
type Bucket interface {
	TryAcquire(nowNs, n uint64) bool
	Available(nowNs uint64) uint64
}

// New builds a bucket: tokenbucket.New, adapted to return the interface.
type New func(capacity, ratePerSec, nowNs uint64) Bucket

//go:embed checks.json
var prose []byte

// domains are the properties' domains, by check name.
var domains = map[string]domain{
	"capacity":          capacityDomain,
	"fractional-tokens": fractionalDomain,
	"partial-take":      partialDomain,
	"backward-time":     backwardDomain,
	"overflow":          overflowDomain,
	"exactness":         exactDomain,
}

// Suite returns the checks of the implementation r serves; a nil r only
// lists them. Their words are in checks.json.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	run := func(s script) check.Trace { return replay(impl, s) }
	// waits-exactly's mistake shows only after the first call.
	afterStart := func(s script, t check.Trace) bool { return fractionalTrap(s, t, run) }
	runs := check.Properties(domains, func(d domain) check.Property[setup, op] { return d.property(impl) })
	runs["starts-full"] = check.Scripted(script{Setup: setup{Capacity: 5, Rate: 1, Start: 1000}, Ops: []op{
		{Available: true}, {N: 5}, {Available: true}, {N: 1},
	}}, run)
	runs["waits-exactly"] = check.TrappedScripted(everyHundredMicros(), run, afterStart)
	runs["budget"] = check.Fixed(func() check.Outcome { return benchmark(r) })
	return check.NewSuite("tokenbucket", prose, func() bool { return notStarted(impl) }, runs)
}

// notStarted reports whether impl is the untouched stub.
func notStarted(impl New) bool {
	b, p := check.Call(func() Bucket { return impl(1, 1, 0) })
	if p != nil {
		return p.Stub()
	}
	_, p1 := check.Call(func() bool { return b.TryAcquire(0, 1) })
	_, p2 := check.Call(func() uint64 { return b.Available(0) })
	return p1.Stub() && p2.Stub()
}

func everyHundredMicros() script {
	ops := []op{{N: 1}} // take the only token
	for range 10 {
		ops = append(ops, op{Wait: 100_000, N: 1})
	}
	return script{Setup: setup{Capacity: 1, Rate: 1000}, Ops: ops}
}
