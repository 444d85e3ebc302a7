package governor

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// API is what the grading child serves for impl.
func API(impl Impl) harness.API {
	return harness.API{Funcs: map[string]any{
		"Decide":          impl.Decide,
		"MemoryClearStep": impl.MemoryClearStep,
		"New":             impl.New,
	}}
}

// Remote returns the Impl r serves.
func Remote(r check.Remote) Impl {
	pkg := check.Object{Remote: r}
	return Impl{
		Decide: func(cfg Config, frac, current, lastBad float64) Decision {
			return check.Get[Decision](pkg, "Decide", cfg, frac, current, lastBad)
		},
		MemoryClearStep: func(streak int, clean bool) (next int, clears bool) {
			r.Call(0, "MemoryClearStep", []any{streak, clean}, &next, &clears)
			return next, clears
		},
		New: func(cfg Config) Governor { return remoteGovernor{check.NewObject(r, "New", cfg)} },
	}
}

type remoteGovernor struct{ check.Object }

func (x remoteGovernor) Observe(cumFailures, cumResolved uint64) Decision {
	return check.Get[Decision](x.Object, "Observe", cumFailures, cumResolved)
}

func (x remoteGovernor) Offer() float64   { return check.Get[float64](x.Object, "Offer") }
func (x remoteGovernor) LastBad() float64 { return check.Get[float64](x.Object, "LastBad") }
