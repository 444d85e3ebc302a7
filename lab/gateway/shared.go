package gateway

import "errors"

// shared is the gateway with one budget: every new order, modify and
// cancel takes a token from the class's orders budget. Heartbeats, the
// verdicts, the flood and its escalation, reconnects and reloads are as
// the exercise has them, so that the budget is the one difference.
type shared struct {
	cfg      Config
	class    string
	b        bucket
	opened   bool
	open     bool
	flooding bool
	floodAt  uint64
	latest   uint64
}

// bucket is a week 1 token bucket in units (10^9 a token), for the small
// budgets of the scenario: capacity times 10^9 and elapsed times rate
// must fit 64 bits, which a scenario's budgets and 12 s do.
type bucket struct {
	units, capUnits, rate, last uint64
}

func newBucket(b Budget, now uint64) bucket {
	c := b.Capacity * unit
	return bucket{units: c, capUnits: c, rate: b.RatePerSec, last: now}
}

const unit = 1_000_000_000

func (b *bucket) refill(now uint64) {
	if now > b.last {
		b.units = min(b.capUnits, b.units+(now-b.last)*b.rate)
		b.last = now
	}
}

// take takes a token if there is one; else it says how long until there
// is: ceil((10^9 - units) / rate).
func (b *bucket) take(now uint64) (bool, uint64) {
	b.refill(now)
	if b.units >= unit {
		b.units -= unit
		return true, 0
	}
	return false, (unit - b.units + b.rate - 1) / b.rate
}

func newShared(cfg Config, now uint64) (*shared, error) {
	if len(cfg.Classes) == 0 {
		return nil, errors.New("gateway: no class")
	}
	return &shared{cfg: cfg, latest: now}, nil
}

func (s *shared) advance(now uint64) uint64 {
	s.latest = max(s.latest, now)
	return s.latest
}

func (s *shared) Open(_ uint64, class string, now uint64) error {
	now = s.advance(now)
	k, ok := s.cfg.Classes[class]
	if !ok {
		return errors.New("gateway: unknown class " + class)
	}
	if !s.opened {
		s.b, s.opened = newBucket(k.Orders, now), true
	}
	s.class, s.open = class, true
	return nil
}

func (s *shared) Admit(_ uint64, kind Kind, now uint64) Verdict {
	now = s.advance(now)
	if !s.open {
		return Verdict{Outcome: Disconnect}
	}
	if kind == Heartbeat {
		return Verdict{}
	}
	ok, retry := s.b.take(now)
	if ok {
		s.flooding = false
		return Verdict{}
	}
	if !s.flooding {
		s.flooding, s.floodAt = true, now
	}
	age := now - s.floodAt
	switch {
	case s.cfg.DisconnectAfterNs > 0 && age >= s.cfg.DisconnectAfterNs:
		s.open, s.flooding = false, false
		return Verdict{Outcome: Disconnect}
	case s.cfg.SilenceAfterNs > 0 && age >= s.cfg.SilenceAfterNs:
		return Verdict{Outcome: Silent, Budget: "orders", RetryAfterNs: retry}
	}
	return Verdict{Outcome: Reject, Budget: "orders", RetryAfterNs: retry}
}

// Reload refills at the old rate up to now, then keeps the units, capped
// at the new capacity (the exercise's rule).
func (s *shared) Reload(cfg Config, now uint64) error {
	k, ok := cfg.Classes[s.class]
	if !ok {
		return errors.New("gateway: class " + s.class + " is gone")
	}
	now = s.advance(now)
	s.cfg = cfg
	if s.opened {
		s.b.refill(now)
		s.b.capUnits, s.b.rate = k.Orders.Capacity*unit, k.Orders.RatePerSec
		s.b.units = min(s.b.units, s.b.capUnits)
	}
	return nil
}
