package breaker

import (
	"errors"
	"math"
)

// State is the state of a breaker.
type State uint8

// The states. A State above HalfOpen is never returned.
const (
	Closed   State = iota // calls pass; consecutive failures are counted
	Open                  // calls are refused until the open period ends
	HalfOpen              // a few probes pass; their reports decide
)

// Config is a breaker's configuration. Every field must be at least 1.
type Config struct {
	FailureThreshold uint32 // consecutive failures, in Closed, that trip it open
	OpenNs           uint64 // how long it stays Open before letting probes through
	HalfOpenProbes   uint32 // calls let through in HalfOpen; that many successes close it
}

// Breaker is a failure-driven circuit breaker. Tickets are numbered from 1
// in the order Allow issues them; a generation is the range of tickets
// issued since the last change of state, so one comparison tells a
// current ticket from a stale or invented one.
type Breaker struct {
	cfg       Config
	state     State
	latest    uint64 // the breaker's clock: the latest time seen
	openedAt  uint64 // Open: when the period began
	failures  uint32 // Closed: consecutive failures reported
	probes    uint32 // HalfOpen: probes let through
	successes uint32 // HalfOpen: probes reported successful
	genStart  uint64 // the tickets of this generation are > genStart
	issued    uint64 // the last ticket issued; 0 before the first
}

// New returns a Closed breaker with cfg and its clock at nowNs, or an error
// naming every field of cfg that is 0.
func New(cfg Config, nowNs uint64) (*Breaker, error) {
	var errs []error
	if cfg.FailureThreshold == 0 {
		errs = append(errs, errors.New("breaker: FailureThreshold must be at least 1"))
	}
	if cfg.OpenNs == 0 {
		errs = append(errs, errors.New("breaker: OpenNs must be at least 1"))
	}
	if cfg.HalfOpenProbes == 0 {
		errs = append(errs, errors.New("breaker: HalfOpenProbes must be at least 1"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &Breaker{cfg: cfg, latest: nowNs}, nil
}

// advance moves the clock to nowNs if it is later, and ends an open period
// that is over by then.
func (b *Breaker) advance(nowNs uint64) {
	b.latest = max(b.latest, nowNs)
	// An open period that would end past MaxUint64 never ends.
	if b.state == Open && b.cfg.OpenNs <= math.MaxUint64-b.openedAt && b.latest >= b.openedAt+b.cfg.OpenNs {
		b.state, b.probes, b.successes = HalfOpen, 0, 0
		b.genStart = b.issued
	}
}

// open starts a new open period at the breaker's clock.
func (b *Breaker) open() {
	b.state, b.openedAt = Open, b.latest
	b.genStart = b.issued
}

// Allow reports whether a call may be made now. If ok, make the call and
// report how it went with Done(ticket, ...); if not, ticket means nothing.
func (b *Breaker) Allow(nowNs uint64) (ticket uint64, ok bool) {
	b.advance(nowNs)
	switch b.state {
	case Closed:
	case HalfOpen:
		if b.probes >= b.cfg.HalfOpenProbes {
			return 0, false
		}
		b.probes++
	default:
		return 0, false
	}
	b.issued++
	return b.issued, true
}

// Done reports the outcome of the call Allow let through with ticket. A
// ticket of an earlier generation, or one Allow never issued, is ignored.
func (b *Breaker) Done(ticket uint64, success bool, nowNs uint64) {
	b.advance(nowNs)
	if ticket <= b.genStart || ticket > b.issued {
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
			b.open()
		}
	case HalfOpen:
		if !success {
			b.open()
			return
		}
		b.successes++
		if b.successes >= b.cfg.HalfOpenProbes {
			b.state, b.failures = Closed, 0
			b.genStart = b.issued
		}
	}
}

// State returns the breaker's state at nowNs.
func (b *Breaker) State(nowNs uint64) State {
	b.advance(nowNs)
	return b.state
}
