package model

import (
	"math"

	"ratelab/lab/contract"
)

// BreakerConfig is the exercise's Config (lab/contract).
type BreakerConfig = contract.BreakerConfig

// BreakerState is what a breaker's state type must be: the contract's
// three states, numbered Closed 0, Open 1, HalfOpen 2 (the exercise's
// State and the lab's are).
type BreakerState interface{ ~uint8 }

// Breaker is the contract's circuit breaker (the doc of exercises/breaker):
// its state, its one latest time, when the open period in force began,
// the consecutive failures reported while Closed, the probes let through
// and the successes reported while HalfOpen, and its generation, bumped
// at every change of state. A ticket belongs to the generation it was
// issued in; a report of a ticket of an earlier generation is ignored.
// Tickets themselves are the caller's to keep: Allow gives the
// generation, Done takes it back.
type Breaker[S BreakerState] struct {
	BreakerConfig

	Current           S
	Gen               uint64
	Latest, OpenedAt  uint64
	Failures          uint32
	Probes, Successes uint32

	// For the grader's messages: FromHalf, whether the open period in
	// force was started from HalfOpen; ChangedAt, the Call (an index the
	// caller sets before each call) of the latest change of state, -1
	// for none.
	FromHalf  bool
	Call      int
	ChangedAt int
}

// The contract's states, whatever their type.
func closed[S BreakerState]() S   { return 0 }
func open[S BreakerState]() S     { return 1 }
func halfOpen[S BreakerState]() S { return 2 }

// NewBreaker is New(config, now): Closed, generation 0, now the latest
// time.
func NewBreaker[S BreakerState](cfg BreakerConfig, now uint64) *Breaker[S] {
	return &Breaker[S]{BreakerConfig: cfg, Latest: now, ChangedAt: -1}
}

// OpenEnd returns when the open period in force ends, and false if it
// never does (OpenedAt+OpenNs is past MaxUint64).
func (m *Breaker[S]) OpenEnd() (uint64, bool) {
	if m.OpenedAt > math.MaxUint64-m.OpenNs {
		return 0, false
	}
	return m.OpenedAt + m.OpenNs, true
}

func (m *Breaker[S]) change(s S) {
	m.Current = s
	m.Gen++
	m.ChangedAt = m.Call
}

// Advance moves the clock to now if now is later, and ends an open period
// that is over: the breaker is HalfOpen, no probe let through yet.
func (m *Breaker[S]) Advance(now uint64) {
	m.Latest = max(m.Latest, now)
	if end, ok := m.OpenEnd(); m.Current == open[S]() && ok && m.Latest >= end {
		m.change(halfOpen[S]())
		m.Probes, m.Successes = 0, 0
	}
}

func (m *Breaker[S]) open(fromHalf bool) {
	m.change(open[S]())
	m.OpenedAt, m.FromHalf = m.Latest, fromHalf
}

// Allow lets a call through while Closed, and the first HalfOpenProbes
// calls of a half-open period, and returns the generation of its ticket.
func (m *Breaker[S]) Allow(now uint64) (gen uint64, ok bool) {
	m.Advance(now)
	switch m.Current {
	case closed[S]():
		return m.Gen, true
	case halfOpen[S]():
		if m.Probes < m.HalfOpenProbes {
			m.Probes++
			return m.Gen, true
		}
	}
	return 0, false
}

// Done reports a call's outcome, for a ticket of generation gen; issued
// false is a ticket never issued. A ticket never issued, or of an earlier
// generation, changes nothing but the clock.
func (m *Breaker[S]) Done(gen uint64, issued, success bool, now uint64) {
	m.Advance(now)
	if !issued || gen != m.Gen {
		return
	}
	switch m.Current {
	case closed[S]():
		if success {
			m.Failures = 0
			return
		}
		if m.Failures++; m.Failures >= m.FailureThreshold {
			m.open(false)
		}
	case halfOpen[S]():
		if !success {
			m.open(true)
			return
		}
		if m.Successes++; m.Successes >= m.HalfOpenProbes {
			m.change(closed[S]())
			m.Failures = 0
		}
	}
}

// StateAt is State(now): the state at now.
func (m *Breaker[S]) StateAt(now uint64) S {
	m.Advance(now)
	return m.Current
}
