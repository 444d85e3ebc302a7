package gateway

import "fmt"

type session struct {
	class      string
	open       bool
	orders     bucket
	cancels    bucket
	flooding   bool
	floodSince uint64
}

// Gateway is an order-entry gateway.
type Gateway struct {
	cfg      Config
	clock    uint64
	sessions map[uint64]*session
}

// New validates cfg and returns a gateway whose clock is at nowNs.
func New(cfg Config, nowNs uint64) (*Gateway, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Gateway{cfg: cfg, clock: nowNs, sessions: map[uint64]*session{}}, nil
}

func (g *Gateway) tick(nowNs uint64) {
	if nowNs > g.clock {
		g.clock = nowNs
	}
}

func (s *session) switchTo(c Class, now uint64) {
	s.orders.refill(now)
	s.cancels.refill(now)
	s.orders.switchTo(c.Orders)
	s.cancels.switchTo(c.Cancels)
}

// Open opens session in class.
func (g *Gateway) Open(id uint64, class string, nowNs uint64) error {
	g.tick(nowNs)
	c, ok := g.cfg.Classes[class]
	if !ok {
		return fmt.Errorf("gateway: unknown class %s", class)
	}
	s := g.sessions[id]
	switch {
	case s == nil:
		s = &session{orders: newBucket(c.Orders, g.clock), cancels: newBucket(c.Cancels, g.clock)}
		g.sessions[id] = s
	case s.open:
		return fmt.Errorf("gateway: session %d is already open", id)
	case s.class != class:
		s.switchTo(c, g.clock)
	}
	s.class, s.open = class, true
	return nil
}

// Admit decides one message of session.
func (g *Gateway) Admit(id uint64, kind Kind, nowNs uint64) Verdict {
	g.tick(nowNs)
	s := g.sessions[id]
	if s == nil || !s.open {
		return Verdict{Outcome: Disconnect}
	}
	if kind == Heartbeat {
		return Verdict{Outcome: Accept}
	}
	b, name := &s.orders, "orders"
	if kind == Cancel {
		b, name = &s.cancels, "cancels"
	}
	b.refill(g.clock)
	if b.take() {
		s.flooding = false
		return Verdict{Outcome: Accept}
	}
	if !s.flooding {
		s.flooding, s.floodSince = true, g.clock
	}
	age := g.clock - s.floodSince
	if d := g.cfg.DisconnectAfterNs; d > 0 && age >= d {
		s.open, s.flooding = false, false
		return Verdict{Outcome: Disconnect}
	}
	out := Reject
	if si := g.cfg.SilenceAfterNs; si > 0 && age >= si {
		out = Silent
	}
	return Verdict{Outcome: out, Budget: name, RetryAfterNs: b.retryAfter()}
}

// Reload switches the gateway to cfg at nowNs.
func (g *Gateway) Reload(cfg Config, nowNs uint64) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	for id, s := range g.sessions {
		if _, ok := cfg.Classes[s.class]; s.open && !ok {
			return fmt.Errorf("gateway: class %s of open session %d is missing", s.class, id)
		}
	}
	g.tick(nowNs)
	for _, s := range g.sessions {
		if c, ok := cfg.Classes[s.class]; ok {
			s.switchTo(c, g.clock)
		}
	}
	g.cfg = cfg
	return nil
}
