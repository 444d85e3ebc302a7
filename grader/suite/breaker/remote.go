package breaker

import (
	"ratelab/grader/check"
	gm "ratelab/grader/model"
)

// State mirrors the exercise's State, with the grader's names; Config is
// the model's (grader/model), declared there once, field by field as the
// exercise's: values travel between the grader and the child by their
// exported fields (see grader/wire).
type State uint8

const (
	Closed State = iota
	Open
	HalfOpen
)

type Config = gm.BreakerConfig

// Breaker is the breaker API every implementation offers.
type Breaker interface {
	Allow(nowNs uint64) (ticket uint64, ok bool)
	Done(ticket uint64, success bool, nowNs uint64)
	State(nowNs uint64) State
}

// New is an implementation's constructor, adapted to the mirrors.
type New func(cfg Config, nowNs uint64) (Breaker, error)

// Remote returns New for the implementation r serves.
func Remote(r check.Remote) New {
	return func(cfg Config, nowNs uint64) (Breaker, error) {
		return check.NewRemote(r, "New", func(o check.Object) Breaker { return remoteBreaker{o} }, cfg, nowNs)
	}
}

type remoteBreaker struct{ check.Object }

func (x remoteBreaker) Allow(nowNs uint64) (ticket uint64, ok bool) {
	x.Remote.Call(x.Obj, "Allow", []any{nowNs}, &ticket, &ok)
	return ticket, ok
}

func (x remoteBreaker) Done(ticket uint64, success bool, nowNs uint64) {
	x.Remote.Call(x.Obj, "Done", []any{ticket, success, nowNs})
}

func (x remoteBreaker) State(nowNs uint64) State {
	return check.Get[State](x.Object, "State", nowNs)
}
