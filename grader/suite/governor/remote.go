package governor

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
	"ratelab/grader/wire"
)

// API is what the grading child serves for impl.
func API(impl Impl) harness.API {
	return harness.API{Funcs: map[string]any{
		"Decide":          impl.Decide,
		"MemoryClearStep": impl.MemoryClearStep,
		"New":             impl.New,
	}}
}

// Remote returns the Impl r serves: every call it makes is a call in r's
// process.
func Remote(r check.Remote) Impl {
	return Impl{
		Decide: func(cfg Config, frac, current, lastBad float64) (d Decision) {
			r.Call(0, "Decide", []any{cfg, frac, current, lastBad}, &d)
			return d
		},
		MemoryClearStep: func(streak int, clean bool) (next int, clears bool) {
			r.Call(0, "MemoryClearStep", []any{streak, clean}, &next, &clears)
			return next, clears
		},
		New: func(cfg Config) Governor {
			var o wire.Obj
			r.Call(0, "New", []any{cfg}, &o)
			return remoteGovernor{r, o}
		},
	}
}

type remoteGovernor struct {
	r check.Remote
	o wire.Obj
}

func (x remoteGovernor) Observe(cumFailures, cumResolved uint64) (d Decision) {
	x.r.Call(x.o, "Observe", []any{cumFailures, cumResolved}, &d)
	return d
}

func (x remoteGovernor) Offer() (got float64) {
	x.r.Call(x.o, "Offer", nil, &got)
	return got
}

func (x remoteGovernor) LastBad() (got float64) {
	x.r.Call(x.o, "LastBad", nil, &got)
	return got
}
