package model

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"ratelab/lab/contract"
)

// GatewayBudget (one budget of a class: Capacity tokens, refilled at
// RatePerSec; Capacity 0 is unlimited), GatewayClass (a session class's
// budgets) and GatewayConfig are the exercise's (lab/contract).
type (
	GatewayBudget = contract.GatewayBudget
	GatewayClass  = contract.GatewayClass
	GatewayConfig = contract.GatewayConfig
)

// GatewayKind and GatewayOutcome are what a gateway's message kinds and
// outcomes must be: numbered as the contract numbers them, NewOrder 0,
// Modify 1, Cancel 2, Heartbeat 3; Accept 0, Reject 1, Silent 2,
// Disconnect 3 (the exercise's types and the lab's are).
type (
	GatewayKind    interface{ ~uint8 }
	GatewayOutcome interface{ ~uint8 }
)

// GatewayVerdict is the gateway's answer to one message.
type GatewayVerdict[O GatewayOutcome] struct {
	Outcome      O
	Budget       string // "orders" or "cancels", for Reject and Silent
	RetryAfterNs uint64
}

// GatewayBucket is one budget of one session: Units held (1 token = 10^9
// units), at most Cap; an Unlimited one holds nothing and refuses nothing.
type GatewayBucket struct {
	Unlimited      bool
	Units, Cap     *big.Int
	Capacity, Rate uint64
}

// NewGatewayBucket is a full bucket of budget b.
func NewGatewayBucket(b GatewayBudget) *GatewayBucket {
	if b.Capacity == 0 {
		return &GatewayBucket{Unlimited: true}
	}
	c := new(big.Int).Mul(new(big.Int).SetUint64(b.Capacity), unitsPerToken)
	return &GatewayBucket{Units: new(big.Int).Set(c), Cap: c, Capacity: b.Capacity, Rate: b.RatePerSec}
}

// earn adds elapsed ns of refill, capped.
func (b *GatewayBucket) earn(elapsed uint64) {
	if b.Unlimited {
		return
	}
	b.Units.Add(b.Units, new(big.Int).Mul(new(big.Int).SetUint64(elapsed), new(big.Int).SetUint64(b.Rate)))
	if b.Units.Cmp(b.Cap) > 0 {
		b.Units.Set(b.Cap)
	}
}

// take takes one token if there is one; otherwise it returns the least
// wait after which one would be there.
func (b *GatewayBucket) take() (ok bool, retryAfterNs uint64) {
	if b.Unlimited {
		return true, 0
	}
	if b.Units.Cmp(unitsPerToken) >= 0 {
		b.Units.Sub(b.Units, unitsPerToken)
		return true, 0
	}
	need := new(big.Int).Sub(unitsPerToken, b.Units)
	d, rem := new(big.Int).QuoRem(need, new(big.Int).SetUint64(b.Rate), new(big.Int))
	if rem.Sign() != 0 {
		d.Add(d, big.NewInt(1))
	}
	return false, d.Uint64()
}

// switchTo is the bucket of budget nb keeping b's units, capped at nb's
// capacity; a bucket that was unlimited starts full.
func (b *GatewayBucket) switchTo(nb GatewayBudget) *GatewayBucket {
	n := NewGatewayBucket(nb)
	if !b.Unlimited && !n.Unlimited && b.Units.Cmp(n.Cap) < 0 {
		n.Units.Set(b.Units)
	}
	return n
}

// GatewaySession is one session: its class, whether it is open, its flood
// (since FloodAt) and its two budgets.
type GatewaySession struct {
	Class           string
	Open, Flooding  bool
	FloodAt         uint64
	Orders, Cancels *GatewayBucket
}

// Gateway is the contract's gateway (the doc of exercises/gateway): the
// config in force, the gateway's one latest time seen, and the sessions
// by id. Every session earns on every step of the clock, which is plainly
// what a lazy refill must amount to.
type Gateway[K GatewayKind, O GatewayOutcome] struct {
	Cfg      GatewayConfig
	Latest   uint64
	Sessions map[uint64]*GatewaySession
}

// NewGateway is New(cfg, now) for a valid cfg: no sessions. The model
// keeps a copy of cfg's classes, as the contract's gateway does.
func NewGateway[K GatewayKind, O GatewayOutcome](cfg GatewayConfig, now uint64) *Gateway[K, O] {
	cfg.Classes = maps.Clone(cfg.Classes)
	return &Gateway[K, O]{Cfg: cfg, Latest: now, Sessions: map[uint64]*GatewaySession{}}
}

// Advance moves the clock to now if later, every session earning.
func (m *Gateway[K, O]) Advance(now uint64) {
	if now <= m.Latest {
		return
	}
	for _, s := range m.Sessions {
		s.Orders.earn(now - m.Latest)
		s.Cancels.earn(now - m.Latest)
	}
	m.Latest = now
}

// Open opens a session: full budgets at its first Open, its own carried
// on after a disconnect, switched to the class's if it reopens in another.
// An unknown class, or a session open already, is an error.
func (m *Gateway[K, O]) Open(id uint64, class string, now uint64) error {
	m.Advance(now)
	k, ok := m.Cfg.Classes[class]
	s := m.Sessions[id]
	switch {
	case !ok:
		return fmt.Errorf("no class %q", class)
	case s != nil && s.Open:
		return fmt.Errorf("session %d is open", id)
	case s == nil:
		m.Sessions[id] = &GatewaySession{Class: class, Open: true, Orders: NewGatewayBucket(k.Orders), Cancels: NewGatewayBucket(k.Cancels)}
	default:
		if s.Class != class {
			s.Orders, s.Cancels, s.Class = s.Orders.switchTo(k.Orders), s.Cancels.switchTo(k.Cancels), class
		}
		s.Open = true
	}
	return nil
}

// Admit decides one message: a session not open is disconnected; a
// heartbeat costs nothing; a cancel takes from the cancels budget (if
// limited), anything else from the orders one. A refusal starts a flood,
// or goes on with one; a flood past SilenceAfterNs is silent, and past
// DisconnectAfterNs closes the session.
func (m *Gateway[K, O]) Admit(id uint64, kind K, now uint64) GatewayVerdict[O] {
	const (
		cancel     = 2
		heartbeat  = 3
		reject     = 1
		silent     = 2
		disconnect = 3
	)
	m.Advance(now)
	s := m.Sessions[id]
	if s == nil || !s.Open {
		return GatewayVerdict[O]{Outcome: disconnect}
	}
	if kind == heartbeat {
		return GatewayVerdict[O]{}
	}
	b, name := s.Orders, "orders"
	if kind == cancel {
		b, name = s.Cancels, "cancels"
	}
	ok, retry := b.take()
	if ok {
		s.Flooding = false
		return GatewayVerdict[O]{}
	}
	if !s.Flooding {
		s.Flooding, s.FloodAt = true, m.Latest
	}
	age := m.Latest - s.FloodAt
	if d := m.Cfg.DisconnectAfterNs; d > 0 && age >= d {
		s.Open, s.Flooding = false, false
		return GatewayVerdict[O]{Outcome: disconnect}
	}
	if q := m.Cfg.SilenceAfterNs; q > 0 && age >= q {
		return GatewayVerdict[O]{Outcome: silent, Budget: name, RetryAfterNs: retry}
	}
	return GatewayVerdict[O]{Outcome: reject, Budget: name, RetryAfterNs: retry}
}

// Reload validates cfg and refuses to drop an open session's class; else
// it refills every session at the old rates and switches each whose class
// remains to its new budgets.
func (m *Gateway[K, O]) Reload(cfg GatewayConfig, now uint64) error {
	if err := GatewayValid(cfg); err != nil {
		return err
	}
	for _, id := range slices.Sorted(maps.Keys(m.Sessions)) {
		if s := m.Sessions[id]; s.Open {
			if _, ok := cfg.Classes[s.Class]; !ok {
				return fmt.Errorf("session %d's class %q is gone", id, s.Class)
			}
		}
	}
	m.Advance(now) // at the old rates
	m.Cfg = cfg
	m.Cfg.Classes = maps.Clone(cfg.Classes)
	for _, s := range m.Sessions {
		if k, ok := cfg.Classes[s.Class]; ok {
			s.Orders, s.Cancels = s.Orders.switchTo(k.Orders), s.Cancels.switchTo(k.Cancels)
		}
	}
	return nil
}

// GatewayProblem is one thing Validate must name: the class ("" for the
// config's own fields) and the field.
type GatewayProblem struct{ Class, Field string }

func (p GatewayProblem) String() string {
	if p.Class == "" {
		return p.Field
	}
	return fmt.Sprintf("class %q, %s", p.Class, p.Field)
}

// GatewayProblems lists what is wrong with cfg, per the contract, classes
// in the order of their names; nil if nothing.
func GatewayProblems(cfg GatewayConfig) []GatewayProblem {
	var out []GatewayProblem
	if len(cfg.Classes) == 0 {
		out = append(out, GatewayProblem{"", "Classes"})
	}
	for _, n := range slices.Sorted(maps.Keys(cfg.Classes)) {
		k := cfg.Classes[n]
		if k.Orders.Capacity == 0 {
			out = append(out, GatewayProblem{n, "Orders.Capacity"})
		}
		if k.Orders.RatePerSec == 0 {
			out = append(out, GatewayProblem{n, "Orders.RatePerSec"})
		}
		if k.Cancels.Capacity == 0 {
			continue
		}
		if k.Cancels.RatePerSec == 0 || k.Cancels.RatePerSec < k.Orders.RatePerSec {
			out = append(out, GatewayProblem{n, "Cancels.RatePerSec"})
		}
		if k.Cancels.Capacity < k.Orders.Capacity {
			out = append(out, GatewayProblem{n, "Cancels.Capacity"})
		}
	}
	if cfg.SilenceAfterNs > 0 && cfg.DisconnectAfterNs > 0 && cfg.SilenceAfterNs >= cfg.DisconnectAfterNs {
		out = append(out, GatewayProblem{"", "SilenceAfterNs"})
	}
	return out
}

// GatewayValid is the contract's Validate: the first of cfg's problems as
// an error, or nil.
func GatewayValid(cfg GatewayConfig) error {
	if ps := GatewayProblems(cfg); ps != nil {
		return errors.New(ps[0].String())
	}
	return nil
}
