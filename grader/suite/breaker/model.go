package breaker

import (
	"math"
	"math/big"
)

// model is the contract, restated plainly. Its tickets are generations:
// a ticket is current if it was issued in the generation in force.
type model struct {
	cfg       Config
	state     State
	latest    uint64
	openedAt  uint64
	failures  uint32 // Closed: consecutive failures
	probes    uint32 // HalfOpen: calls let through
	successes uint32 // HalfOpen: successes reported
	gen       uint64 // bumped at every change of state
	// Events, for the messages.
	fromHalf  bool  // the open period in force was started from HalfOpen
	changedAt int   // the call (index) of the latest change of state; -1 for none
	call      int   // the index of the call being made
	prior     State // walk: the state before the call's time was applied
}

func newModel(cfg Config, start uint64) *model {
	return &model{cfg: cfg, latest: start, changedAt: -1}
}

// openEnd returns when the open period in force ends, and false if it
// never does (openedAt+OpenNs is past MaxUint64).
func (m *model) openEnd() (uint64, bool) {
	end := new(big.Int).Add(new(big.Int).SetUint64(m.openedAt), new(big.Int).SetUint64(m.cfg.OpenNs))
	if end.Cmp(new(big.Int).SetUint64(math.MaxUint64)) > 0 {
		return 0, false
	}
	return end.Uint64(), true
}

func (m *model) change(s State) {
	m.state = s
	m.gen++
	m.changedAt = m.call
}

// advance moves the clock and ends an open period that is over.
func (m *model) advance(now uint64) {
	if now > m.latest {
		m.latest = now
	}
	if m.state != Open {
		return
	}
	if end, ok := m.openEnd(); ok && m.latest >= end {
		m.change(HalfOpen)
		m.probes, m.successes = 0, 0
	}
}

func (m *model) open(fromHalf bool) {
	m.change(Open)
	m.openedAt, m.fromHalf = m.latest, fromHalf
}

// allow returns the generation of the ticket and whether the call may go.
func (m *model) allow(now uint64) (gen uint64, ok bool) {
	m.advance(now)
	switch m.state {
	case Closed:
		return m.gen, true
	case HalfOpen:
		if m.probes < m.cfg.HalfOpenProbes {
			m.probes++
			return m.gen, true
		}
	}
	return 0, false
}

// done reports a ticket of generation gen (issued false: a ticket never
// issued).
func (m *model) done(gen uint64, issued, success bool, now uint64) {
	m.advance(now)
	if !issued || gen != m.gen {
		return
	}
	switch m.state {
	case Closed:
		if success {
			m.failures = 0
			return
		}
		m.failures++
		if m.failures >= m.cfg.FailureThreshold {
			m.open(false)
		}
	case HalfOpen:
		if !success {
			m.open(true)
			return
		}
		m.successes++
		if m.successes >= m.cfg.HalfOpenProbes {
			m.change(Closed)
			m.failures = 0
		}
	}
}

func (m *model) stateAt(now uint64) State {
	m.advance(now)
	return m.state
}
