package breaker

import "math/bits"

const seqBits = 32

// Breaker is a failure-driven circuit breaker. A ticket is the generation in
// its high 32 bits and a sequence number from 1 in its low 32 bits.
type Breaker struct {
	cfg Config
	now uint64

	gen   uint64
	seq   uint64 // tickets issued in this generation (saturates)
	state State

	openUntil uint64
	forever   bool // the open period never ends

	streak   uint32 // Closed: consecutive failures; HalfOpen: successes
	inFlight uint32 // HalfOpen: probes let through
}

// New returns a Closed breaker.
func New(cfg Config, nowNs uint64) (*Breaker, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &Breaker{cfg: cfg, now: nowNs, gen: 1}, nil
}

func (b *Breaker) observe(nowNs uint64) {
	b.now = max(b.now, nowNs)
	if b.state == Open && !b.forever && b.now >= b.openUntil {
		b.enter(HalfOpen)
	}
}

func (b *Breaker) enter(s State) {
	b.gen++
	b.seq = 0
	b.state = s
	b.streak = 0
	b.inFlight = 0
	if s == Open {
		sum, carry := bits.Add64(b.now, b.cfg.OpenNs, 0)
		b.openUntil, b.forever = sum, carry != 0
	}
}

// Allow reports whether a call may be made at nowNs.
func (b *Breaker) Allow(nowNs uint64) (ticket uint64, ok bool) {
	b.observe(nowNs)
	if b.state == Open {
		return 0, false
	}
	if b.state == HalfOpen {
		if b.inFlight == b.cfg.HalfOpenProbes {
			return 0, false
		}
		b.inFlight++
	}
	if b.seq < 1<<seqBits-1 {
		b.seq++
	}
	return b.gen<<seqBits | b.seq, true
}

// Done reports the outcome of the call let through with ticket.
func (b *Breaker) Done(ticket uint64, success bool, nowNs uint64) {
	b.observe(nowNs)
	gen, seq := ticket>>seqBits, ticket&(1<<seqBits-1)
	if gen != b.gen || seq == 0 || seq > b.seq {
		return
	}
	switch {
	case b.state == Closed && success:
		b.streak = 0
	case b.state == Closed:
		b.streak++
		if b.streak == b.cfg.FailureThreshold {
			b.enter(Open)
		}
	case b.state == HalfOpen && !success:
		b.enter(Open)
	case b.state == HalfOpen:
		b.streak++
		if b.streak == b.cfg.HalfOpenProbes {
			b.enter(Closed)
		}
	}
}

// State returns the breaker's state at nowNs.
func (b *Breaker) State(nowNs uint64) State {
	b.observe(nowNs)
	return b.state
}
