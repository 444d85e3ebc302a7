package breaker

import (
	"errors"
	"math"
)

// State is the state of a breaker.
type State uint8

// The states.
const (
	Closed State = iota
	Open
	HalfOpen
)

// Config is a breaker's configuration.
type Config struct {
	FailureThreshold uint32
	OpenNs           uint64
	HalfOpenProbes   uint32
}

// Breaker is a failure-driven circuit breaker.
type Breaker struct {
	cfg      Config
	clock    uint64
	state    State
	openedAt uint64
	failures uint32 // consecutive failures in Closed
	probes   uint32 // probes let through in this half-open period
	okProbes uint32 // successful probes in this half-open period
	next     uint64 // the next ticket Allow hands out
	genStart uint64 // the first ticket of the current generation
}

// New returns a Closed breaker.
func New(cfg Config, nowNs uint64) (*Breaker, error) {
	switch {
	case cfg.FailureThreshold == 0:
		return nil, errors.New("FailureThreshold must be at least 1")
	case cfg.OpenNs == 0:
		return nil, errors.New("OpenNs must be at least 1")
	case cfg.HalfOpenProbes == 0:
		return nil, errors.New("HalfOpenProbes must be at least 1")
	}
	return &Breaker{cfg: cfg, clock: nowNs, next: 2, genStart: 2}, nil
}

func (b *Breaker) tick(nowNs uint64) {
	if nowNs > b.clock {
		b.clock = nowNs
	}
	if b.state == Open && b.cfg.OpenNs <= math.MaxUint64-b.openedAt && b.clock >= b.openedAt+b.cfg.OpenNs {
		b.moveTo(HalfOpen)
	}
}

func (b *Breaker) moveTo(s State) {
	b.state = s
	b.genStart = b.next
	b.probes, b.okProbes = 0, 0
	switch s {
	case Open:
		b.openedAt = b.clock
	case Closed:
		b.failures = 0
	}
}

// Allow reports whether a call may be made at nowNs.
func (b *Breaker) Allow(nowNs uint64) (uint64, bool) {
	b.tick(nowNs)
	switch b.state {
	case Open:
		return 0, false
	case HalfOpen:
		if b.probes >= b.cfg.HalfOpenProbes {
			return 0, false
		}
		b.probes++
	}
	t := b.next
	b.next++
	return t, true
}

// Done reports the outcome of the call let through with ticket.
func (b *Breaker) Done(ticket uint64, success bool, nowNs uint64) {
	b.tick(nowNs)
	if ticket >= b.next || (success && ticket < b.genStart) {
		return
	}
	switch b.state {
	case Closed:
		if success {
			b.failures = 0
			return
		}
		b.failures++
		if b.failures >= b.cfg.FailureThreshold {
			b.moveTo(Open)
		}
	case HalfOpen:
		if !success {
			b.moveTo(Open)
			return
		}
		b.okProbes++
		if b.okProbes >= b.cfg.HalfOpenProbes {
			b.moveTo(Closed)
		}
	}
}

// State returns the breaker's state at nowNs.
func (b *Breaker) State(nowNs uint64) State {
	b.tick(nowNs)
	return b.state
}
