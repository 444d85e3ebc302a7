package gateway

import "errors"

type conn struct {
	class   string
	open    bool
	budgets [2]budget // orders, cancels
	flood   bool
	floodAt uint64
}

var budgetNames = [2]string{"orders", "cancels"}

// Gateway is an order-entry gateway.
type Gateway struct {
	cfg   Config
	now   uint64
	index map[uint64]int
	conns []conn
}

// New validates cfg and returns a gateway whose clock is at nowNs.
func New(cfg Config, nowNs uint64) (*Gateway, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Gateway{cfg: cfg, now: nowNs, index: make(map[uint64]int)}, nil
}

func (g *Gateway) see(nowNs uint64) uint64 {
	g.now = max(g.now, nowNs)
	return g.now
}

func (c *conn) rebudget(cl Class, now uint64) {
	for i, b := range [2]Budget{cl.Orders, cl.Cancels} {
		c.budgets[i].reconfigure(b)
	}
}

// Open opens session in class.
func (g *Gateway) Open(session uint64, class string, nowNs uint64) error {
	now := g.see(nowNs)
	cl, known := g.cfg.Classes[class]
	if !known {
		return errors.New("gateway: no class named " + class)
	}
	i, seen := g.index[session]
	if !seen {
		g.conns = append(g.conns, conn{class: class, open: true, budgets: [2]budget{makeBudget(cl.Orders, now), makeBudget(cl.Cancels, now)}})
		g.index[session] = len(g.conns) - 1
		return nil
	}
	c := &g.conns[i]
	if c.open {
		return errors.New("gateway: session is already open")
	}
	c.rebudget(cl, now)
	c.class, c.open = class, true
	return nil
}

// Admit decides one message of session.
func (g *Gateway) Admit(session uint64, kind Kind, nowNs uint64) Verdict {
	now := g.see(nowNs)
	i, seen := g.index[session]
	if !seen || !g.conns[i].open {
		return Verdict{Outcome: Disconnect}
	}
	c := &g.conns[i]
	var which int
	switch kind {
	case Heartbeat:
		return Verdict{}
	case Cancel:
		which = 1
	}
	b := &c.budgets[which]
	b.earn(now)
	if b.spend() {
		c.flood = false
		return Verdict{}
	}
	if !c.flood {
		c.flood, c.floodAt = true, now
	}
	age := now - c.floodAt
	switch {
	case g.cfg.DisconnectAfterNs != 0 && age >= g.cfg.DisconnectAfterNs:
		c.open, c.flood = false, false
		return Verdict{Outcome: Disconnect}
	case g.cfg.SilenceAfterNs != 0 && age >= g.cfg.SilenceAfterNs:
		return Verdict{Outcome: Silent, Budget: budgetNames[which], RetryAfterNs: b.wait()}
	}
	return Verdict{Outcome: Reject, Budget: budgetNames[which], RetryAfterNs: b.wait()}
}

// Reload switches the gateway to cfg at nowNs.
func (g *Gateway) Reload(cfg Config, nowNs uint64) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	for i := range g.conns {
		if _, ok := cfg.Classes[g.conns[i].class]; g.conns[i].open && !ok {
			return errors.New("gateway: an open session is in class " + g.conns[i].class + ", which the new config lacks")
		}
	}
	now := g.see(nowNs)
	for i := range g.conns {
		if cl, ok := cfg.Classes[g.conns[i].class]; ok {
			g.conns[i].rebudget(cl, now)
		}
	}
	g.cfg = cfg
	return nil
}
