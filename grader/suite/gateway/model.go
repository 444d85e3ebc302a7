package gateway

import (
	"fmt"
	"math/big"
	"slices"
)

// unitsPerToken is the contract's fixed-point scale: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

// mBucket is one budget of one session in the model: units held, at most
// capacity*10^9. unlimited buckets hold nothing and refuse nothing.
type mBucket struct {
	unlimited   bool
	units, capU *big.Int
	rate        *big.Int
}

func newMBucket(b Budget) *mBucket {
	if b.Capacity == 0 {
		return &mBucket{unlimited: true}
	}
	c := new(big.Int).Mul(new(big.Int).SetUint64(b.Capacity), unitsPerToken)
	return &mBucket{units: new(big.Int).Set(c), capU: c, rate: new(big.Int).SetUint64(b.RatePerSec)}
}

// earn adds elapsed ns of refill, capped.
func (b *mBucket) earn(elapsed uint64) {
	if b.unlimited {
		return
	}
	b.units.Add(b.units, new(big.Int).Mul(new(big.Int).SetUint64(elapsed), b.rate))
	if b.units.Cmp(b.capU) > 0 {
		b.units.Set(b.capU)
	}
}

// take takes one token if there is one; otherwise it returns the least d
// after which one would be there.
func (b *mBucket) take() (ok bool, retryAfterNs uint64) {
	if b.unlimited {
		return true, 0
	}
	if b.units.Cmp(unitsPerToken) >= 0 {
		b.units.Sub(b.units, unitsPerToken)
		return true, 0
	}
	need := new(big.Int).Sub(unitsPerToken, b.units)
	d, rem := new(big.Int).QuoRem(need, b.rate, new(big.Int))
	if rem.Sign() != 0 {
		d.Add(d, big.NewInt(1))
	}
	return false, d.Uint64()
}

// switchTo makes b follow nb: units kept, capped at the new capacity; a
// bucket that was unlimited starts full.
func (b *mBucket) switchTo(nb Budget) *mBucket {
	n := newMBucket(nb)
	if !b.unlimited && !n.unlimited && b.units.Cmp(n.capU) < 0 {
		n.units.Set(b.units)
	}
	return n
}

// mSession is a session id's state in the model.
type mSession struct {
	class           string
	open, flooding  bool
	floodAt         uint64
	orders, cancels *mBucket
}

// model is the contract's gateway. Every session earns on every step of
// the clock, which is plainly what a lazy refill must amount to.
type model struct {
	cfg      Config
	now      uint64
	sessions map[uint64]*mSession
}

func newModel(cfg Config, now uint64) *model {
	return &model{cfg: cfg, now: now, sessions: map[uint64]*mSession{}}
}

// advance moves the clock to now if later, every session earning.
func (m *model) advance(now uint64) {
	if now <= m.now {
		return
	}
	for _, s := range m.sessions {
		s.orders.earn(now - m.now)
		s.cancels.earn(now - m.now)
	}
	m.now = now
}

func (m *model) open(id uint64, class string, now uint64) (wantErr bool) {
	m.advance(now)
	k, ok := m.cfg.Classes[class]
	s := m.sessions[id]
	switch {
	case !ok || s != nil && s.open:
		return true
	case s == nil:
		m.sessions[id] = &mSession{class: class, open: true, orders: newMBucket(k.Orders), cancels: newMBucket(k.Cancels)}
	default:
		if s.class != class {
			s.orders, s.cancels, s.class = s.orders.switchTo(k.Orders), s.cancels.switchTo(k.Cancels), class
		}
		s.open = true
	}
	return false
}

func (m *model) admit(id uint64, kind Kind, now uint64) Verdict {
	m.advance(now)
	s := m.sessions[id]
	if s == nil || !s.open {
		return Verdict{Outcome: Disconnect}
	}
	if kind == Heartbeat {
		return Verdict{}
	}
	b, name := s.orders, "orders"
	if kind == Cancel {
		b, name = s.cancels, "cancels"
	}
	ok, retry := b.take()
	if ok {
		s.flooding = false
		return Verdict{}
	}
	if !s.flooding {
		s.flooding, s.floodAt = true, m.now
	}
	age := m.now - s.floodAt
	if d := m.cfg.DisconnectAfterNs; d > 0 && age >= d {
		s.open, s.flooding = false, false
		return Verdict{Outcome: Disconnect}
	}
	if q := m.cfg.SilenceAfterNs; q > 0 && age >= q {
		return Verdict{Outcome: Silent, Budget: name, RetryAfterNs: retry}
	}
	return Verdict{Outcome: Reject, Budget: name, RetryAfterNs: retry}
}

func (m *model) reload(cfg Config, now uint64) (wantErr bool) {
	if problems(cfg) != nil {
		return true
	}
	for _, s := range m.sessions {
		if _, ok := cfg.Classes[s.class]; s.open && !ok {
			return true
		}
	}
	m.advance(now) // at the old rates
	m.cfg = cfg
	for _, s := range m.sessions {
		if k, ok := cfg.Classes[s.class]; ok {
			s.orders, s.cancels = s.orders.switchTo(k.Orders), s.cancels.switchTo(k.Cancels)
		}
	}
	return false
}

// problem is one thing Validate must name: the class ("" for the config's
// own fields) and the field.
type problem struct{ class, field string }

// problems lists what is wrong with cfg, per the contract; nil if nothing.
func problems(cfg Config) []problem {
	var out []problem
	if len(cfg.Classes) == 0 {
		out = append(out, problem{"", "Classes"})
	}
	names := make([]string, 0, len(cfg.Classes))
	for n := range cfg.Classes {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		k := cfg.Classes[n]
		if k.Orders.Capacity == 0 {
			out = append(out, problem{n, "Orders.Capacity"})
		}
		if k.Orders.RatePerSec == 0 {
			out = append(out, problem{n, "Orders.RatePerSec"})
		}
		if k.Cancels.Capacity == 0 {
			continue
		}
		if k.Cancels.RatePerSec == 0 || k.Cancels.RatePerSec < k.Orders.RatePerSec {
			out = append(out, problem{n, "Cancels.RatePerSec"})
		}
		if k.Cancels.Capacity < k.Orders.Capacity {
			out = append(out, problem{n, "Cancels.Capacity"})
		}
	}
	if cfg.SilenceAfterNs > 0 && cfg.DisconnectAfterNs > 0 && cfg.SilenceAfterNs >= cfg.DisconnectAfterNs {
		out = append(out, problem{"", "SilenceAfterNs"})
	}
	return out
}

func (p problem) String() string {
	if p.class == "" {
		return p.field
	}
	return fmt.Sprintf("class %q, %s", p.class, p.field)
}
