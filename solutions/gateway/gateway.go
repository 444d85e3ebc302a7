package gateway

import (
	"errors"
	"maps"
	"strconv"
)

// Kind is the kind of a message a session sends.
type Kind uint8

// The kinds of message. A Kind above Heartbeat is not legal input.
const (
	NewOrder  Kind = iota // takes one token from Orders
	Modify                // takes one token from Orders
	Cancel                // takes one token from Cancels, if it is limited
	Heartbeat             // always accepted on an open session; touches nothing
)

// Outcome is what the gateway does with a message.
type Outcome uint8

// The outcomes, from the mildest.
const (
	Accept     Outcome = iota // passed on to the engine
	Reject                    // refused, with a "throttled" reason and when to retry
	Silent                    // refused without an answer: the flood is old
	Disconnect                // the session is closed (or was not open)
)

// Verdict is the gateway's answer to one message.
type Verdict struct {
	Outcome      Outcome
	Budget       string // "orders" or "cancels": the budget that refused (Reject, Silent); "" otherwise
	RetryAfterNs uint64 // Reject, Silent: ns from now until that budget holds one token; else 0
}

// state is one session id's state. Its budgets belong to the id: they
// outlive a disconnect.
type state struct {
	class    string
	open     bool
	flooding bool
	floodNs  uint64 // when the flood began, if flooding
	orders   bucket
	cancels  bucket
	budgets  Class // the budgets its buckets follow
}

// Gateway admits the messages of sessions against their class's budgets.
// The zero value is not usable: call New.
type Gateway struct {
	cfg      Config
	nowNs    uint64 // the latest time seen
	sessions map[uint64]*state
}

// New returns a gateway with cfg, its clock at nowNs, or Validate's error.
func New(cfg Config, nowNs uint64) (*Gateway, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Gateway{cfg: clone(cfg), nowNs: nowNs, sessions: map[uint64]*state{}}, nil
}

// clone copies cfg's classes, so that the caller's map may change later.
func clone(cfg Config) Config {
	cfg.Classes = maps.Clone(cfg.Classes)
	return cfg
}

// advance moves the clock to nowNs if it is later, and returns the time
// the call happens at: an earlier nowNs counts as the latest time seen.
func (g *Gateway) advance(nowNs uint64) uint64 {
	g.nowNs = max(g.nowNs, nowNs)
	return g.nowNs
}

// Open opens session in class. Its buckets start full at its first Open;
// reopened after a Disconnect, it carries on with the buckets it had
// (they kept earning while it was closed). Reopened in another class, its
// buckets switch to that class's budgets as a Reload would switch them.
// An unknown class, or a session already open, is an error.
func (g *Gateway) Open(session uint64, class string, nowNs uint64) error {
	now := g.advance(nowNs)
	k, ok := g.cfg.Classes[class]
	if !ok {
		return errors.New("session " + u(session) + ": unknown class " + strconv.Quote(class))
	}
	s := g.sessions[session]
	switch {
	case s == nil:
		g.sessions[session] = &state{class: class, open: true, orders: newBucket(k.Orders, now), cancels: newBucket(k.Cancels, now), budgets: k}
		return nil
	case s.open:
		return errors.New("session " + u(session) + " is already open")
	}
	if s.class != class || s.budgets != k {
		s.switchTo(class, k, now)
	}
	s.open = true
	return nil
}

// switchTo refills s's buckets up to now at their old rates, then makes
// them follow class k.
func (s *state) switchTo(class string, k Class, now uint64) {
	s.orders.reload(k.Orders, now)
	s.cancels.reload(k.Cancels, now)
	s.class, s.budgets = class, k
}

// Admit decides one message of session. A session that is not open gets
// Disconnect, whatever the message.
func (g *Gateway) Admit(session uint64, kind Kind, nowNs uint64) Verdict {
	now := g.advance(nowNs)
	s := g.sessions[session]
	if s == nil || !s.open {
		return Verdict{Outcome: Disconnect}
	}
	var ok bool
	var retry uint64
	budget := "orders"
	switch kind {
	case Heartbeat:
		return Verdict{}
	case Cancel:
		budget = "cancels"
		ok, retry = s.cancels.take(now)
	default:
		ok, retry = s.orders.take(now)
	}
	if ok {
		s.flooding = false
		return Verdict{}
	}
	if !s.flooding {
		s.flooding, s.floodNs = true, now
	}
	age := now - s.floodNs
	switch {
	case g.cfg.DisconnectAfterNs > 0 && age >= g.cfg.DisconnectAfterNs:
		s.open, s.flooding = false, false
		return Verdict{Outcome: Disconnect}
	case g.cfg.SilenceAfterNs > 0 && age >= g.cfg.SilenceAfterNs:
		return Verdict{Outcome: Silent, Budget: budget, RetryAfterNs: retry}
	}
	return Verdict{Outcome: Reject, Budget: budget, RetryAfterNs: retry}
}

// Reload switches to cfg at nowNs: every session's buckets are refilled
// up to nowNs at their old rates, then follow their class's new budgets
// (units kept, capped at the new capacity; a budget that was unlimited
// starts full). A closed session whose class is gone keeps its budgets
// until it is reopened. An invalid cfg, or one without the class of an
// open session, is an error, and then nothing changes, the clock neither.
func (g *Gateway) Reload(cfg Config, nowNs uint64) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	for id, s := range g.sessions {
		if _, ok := cfg.Classes[s.class]; s.open && !ok {
			return errors.New("class " + strconv.Quote(s.class) + " is gone, but session " + u(id) + " of that class is open")
		}
	}
	now := g.advance(nowNs)
	g.cfg = clone(cfg)
	for _, s := range g.sessions {
		if k, ok := g.cfg.Classes[s.class]; ok {
			s.switchTo(s.class, k, now)
		}
	}
	return nil
}
