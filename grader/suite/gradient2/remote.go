package gradient2

import (
	"reflect"

	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// toWire is c as it travels to the grading child: a setup, which names c's
// QueueSize. The suite only ever builds configs with one of queueFuncs (or
// nil).
func toWire(c Config) setup {
	s := setup{
		Initial: c.InitialLimit, Min: c.MinLimit, Max: c.MaxLimit,
		Smoothing: c.Smoothing, Tol: c.RTTTolerance, Window: c.LongWindow,
	}
	if c.QueueSize == nil {
		return s
	}
	p := reflect.ValueOf(c.QueueSize).Pointer()
	for k, q := range queueFuncs {
		if q.fn != nil && reflect.ValueOf(q.fn).Pointer() == p {
			s.Queue = k
			return s
		}
	}
	panic("gradient2: a QueueSize that is not one of the suite's own")
}

// API is what the grading child serves for impl.
func API(impl New) harness.API {
	return harness.API{Funcs: map[string]any{
		"New": func(s setup) Limit { return impl(s.config()) },
	}}
}

// Remote returns New for the implementation r serves.
func Remote(r check.Remote) New {
	return func(cfg Config) Limit { return remoteLimit{check.NewObject(r, "New", toWire(cfg))} }
}

type remoteLimit struct{ check.Object }

func (x remoteLimit) Update(rttNs uint64, inflight int) int {
	return check.Get[int](x.Object, "Update", rttNs, inflight)
}

func (x remoteLimit) Limit() int { return check.Get[int](x.Object, "Limit") }
