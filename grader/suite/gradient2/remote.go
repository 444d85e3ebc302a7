package gradient2

import (
	"reflect"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	"ratelab/grader/wire"
)

// wireConfig is Config as it travels to the grading child: QueueSize, a
// function, by the name of one of the suite's own (queueFuncs).
type wireConfig struct {
	InitialLimit, MinLimit, MaxLimit float64
	Smoothing, RTTTolerance          float64
	LongWindow                       int
	Queue                            int
}

func (w wireConfig) config() Config {
	return Config{
		InitialLimit: w.InitialLimit, MinLimit: w.MinLimit, MaxLimit: w.MaxLimit,
		Smoothing: w.Smoothing, RTTTolerance: w.RTTTolerance, LongWindow: w.LongWindow,
		QueueSize: queueFuncs[queueKind(w.Queue)].fn,
	}
}

// toWire names c's QueueSize: the suite only ever builds configs with one
// of queueFuncs (or nil).
func toWire(c Config) wireConfig {
	w := wireConfig{
		InitialLimit: c.InitialLimit, MinLimit: c.MinLimit, MaxLimit: c.MaxLimit,
		Smoothing: c.Smoothing, RTTTolerance: c.RTTTolerance, LongWindow: c.LongWindow,
	}
	if c.QueueSize == nil {
		return w
	}
	p := reflect.ValueOf(c.QueueSize).Pointer()
	for k, q := range queueFuncs {
		if q.fn != nil && reflect.ValueOf(q.fn).Pointer() == p {
			w.Queue = int(k)
			return w
		}
	}
	panic("gradient2: a QueueSize that is not one of the suite's own")
}

// API is what the grading child serves for impl.
func API(impl New) harness.API {
	return harness.API{Funcs: map[string]any{
		"New": func(w wireConfig) Limit { return impl(w.config()) },
	}}
}

// Remote returns New for the implementation r serves: every call it makes
// is a call in r's process.
func Remote(r check.Remote) New {
	return func(cfg Config) Limit {
		var o wire.Obj
		r.Call(0, "New", []any{toWire(cfg)}, &o)
		return remoteLimit{r, o}
	}
}

type remoteLimit struct {
	r check.Remote
	o wire.Obj
}

func (x remoteLimit) Update(rttNs uint64, inflight int) (got int) {
	x.r.Call(x.o, "Update", []any{rttNs, inflight}, &got)
	return got
}

func (x remoteLimit) Limit() (got int) {
	x.r.Call(x.o, "Limit", nil, &got)
	return got
}
