package replay

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"

	"ratelab/grader/report"
	"ratelab/lab/gateway"
)

// The week 3 gateway: each session's budgets, open or closed, and its
// flood, the inputs of every verdict.
func init() {
	register(Exercise{ID: "gateway", Build: buildGateway, Model: modelGateway})
}

// gatewayConfig reads a Config argument (New's and Reload's first) as the
// grader prints it: Config{Classes: {"name": {Orders: Budget{c, r},
// Cancels: Budget{c, r}}}, SilenceAfterNs: n, DisconnectAfterNs: n}, the
// unlimited cancels and unset times left out.
func gatewayConfig(c report.Call) (gateway.Config, error) {
	cfg := gateway.Config{Classes: map[string]gateway.Class{}}
	s, err := structArg(c, "arg1")
	if err != nil {
		return cfg, err
	}
	for _, f := range []struct {
		name string
		to   *uint64
	}{{"SilenceAfterNs", &cfg.SilenceAfterNs}, {"DisconnectAfterNs", &cfg.DisconnectAfterNs}} {
		if _, ok := s.Args[f.name]; ok {
			if *f.to, err = argU64(s, f.name); err != nil {
				return cfg, err
			}
		}
	}
	classes, err := structArg(s, "Classes")
	if err != nil {
		return cfg, err
	}
	for name := range classes.Args {
		k, err := structArg(classes, name)
		if err != nil {
			return cfg, err
		}
		var class gateway.Class
		for _, b := range []struct {
			field string
			to    *gateway.Budget
		}{{"Orders", &class.Orders}, {"Cancels", &class.Cancels}} {
			if _, ok := k.Args[b.field]; !ok {
				continue // unlimited cancels are left out
			}
			budget, err := structArg(k, b.field)
			if err != nil {
				return cfg, err
			}
			if b.to.Capacity, err = argU64(budget, "arg1"); err != nil {
				return cfg, err
			}
			if b.to.RatePerSec, err = argU64(budget, "arg2"); err != nil {
				return cfg, err
			}
		}
		cfg.Classes[name] = class
	}
	return cfg, nil
}

func gatewaySetup(c report.Call) (cfg gateway.Config, now uint64, err error) {
	if err = want(c, "New"); err != nil {
		return cfg, 0, err
	}
	if cfg, err = gatewayConfig(c); err != nil {
		return cfg, 0, err
	}
	now, err = argU64(c, "nowNs")
	return cfg, now, err
}

var (
	gatewayKinds    = []string{"NewOrder", "Modify", "Cancel", "Heartbeat"}
	gatewayOutcomes = []string{"Accept", "Reject", "Silent", "Disconnect"}
)

// verdictText writes a verdict as the grader does: "Accept",
// "Disconnect", or `Reject "orders" retryAfterNs=10_000_000`.
func verdictText(v gateway.Verdict) string {
	name := "Outcome(" + strconv.Itoa(int(v.Outcome)) + ")"
	if int(v.Outcome) < len(gatewayOutcomes) {
		name = gatewayOutcomes[v.Outcome]
	}
	if (v.Outcome == gateway.Accept || v.Outcome == gateway.Disconnect) && v.Budget == "" && v.RetryAfterNs == 0 {
		return name
	}
	return fmt.Sprintf("%s %q retryAfterNs=%s", name, v.Budget, goU(v.RetryAfterNs))
}

// errText is an error as the replay compares it: "nil" or "an error" (the
// words are the implementation's own; the grader checks what they name).
func errText(err error) string {
	if err != nil {
		return "an error"
	}
	return "nil"
}

func doGateway(g gateway.Gateway, c report.Call) (string, error) {
	now, err := argU64(c, "nowNs")
	if err != nil {
		return "", err
	}
	switch c.Name {
	case "Open", "Admit":
		session, err := argU64(c, "session")
		if err != nil {
			return "", err
		}
		if c.Name == "Open" {
			class, err := argText(c, "class")
			if err != nil {
				return "", err
			}
			return errText(g.Open(session, class, now)), nil
		}
		kind, err := argText(c, "kind")
		if err != nil {
			return "", err
		}
		k := slices.Index(gatewayKinds, kind)
		if k < 0 {
			return "", fmt.Errorf("Admit: kind %q is not one of %v", kind, gatewayKinds)
		}
		return verdictText(g.Admit(session, gateway.Kind(k), now)), nil
	case "Reload":
		cfg, err := gatewayConfig(c)
		if err != nil {
			return "", err
		}
		return errText(g.Reload(cfg, now)), nil
	}
	return "", want(c, "Open", "Admit", "Reload")
}

type gatewayCalls struct{ g gateway.Gateway }

func (x gatewayCalls) Do(c report.Call) (string, error) { return doGateway(x.g, c) }

// buildGateway builds the gateway; a config New refuses cannot be
// replayed (the check that graded it is a case of its own).
func buildGateway(impls Impls, setup report.Call) (Instance, error) {
	cfg, now, err := gatewaySetup(setup)
	if err != nil {
		return nil, err
	}
	if impls.Gateway.New == nil {
		return nil, errMissing(impls.Gateway.Missing)
	}
	g, err := impls.Gateway.New(cfg, now)
	if err != nil {
		return nil, fmt.Errorf("New refused the config: %v", err)
	}
	if g == nil {
		return nil, fmt.Errorf("New returned no gateway and no error")
	}
	return gatewayCalls{g}, nil
}

// GatewayBudget is a token bucket in units (1 token = 10^9 units);
// Unlimited when its capacity is 0.
type GatewayBudget struct {
	Unlimited      bool
	Units, Cap     *big.Int
	Capacity, Rate uint64
}

func newGatewayBudget(b gateway.Budget) *GatewayBudget {
	if b.Capacity == 0 {
		return &GatewayBudget{Unlimited: true}
	}
	full := new(big.Int).Mul(new(big.Int).SetUint64(b.Capacity), unitsPerToken)
	return &GatewayBudget{Units: new(big.Int).Set(full), Cap: full, Capacity: b.Capacity, Rate: b.RatePerSec}
}

func (b *GatewayBudget) earn(elapsed uint64) {
	if b.Unlimited {
		return
	}
	b.Units.Add(b.Units, new(big.Int).Mul(new(big.Int).SetUint64(elapsed), new(big.Int).SetUint64(b.Rate)))
	if b.Units.Cmp(b.Cap) > 0 {
		b.Units.Set(b.Cap)
	}
}

// take takes one token, or says how long until one is held.
func (b *GatewayBudget) take() (ok bool, retryAfterNs uint64) {
	if b.Unlimited {
		return true, 0
	}
	if b.Units.Cmp(unitsPerToken) >= 0 {
		b.Units.Sub(b.Units, unitsPerToken)
		return true, 0
	}
	need := new(big.Int).Sub(unitsPerToken, b.Units)
	rate := new(big.Int).SetUint64(b.Rate)
	d, rem := new(big.Int).QuoRem(need, rate, new(big.Int))
	if rem.Sign() != 0 {
		d.Add(d, big.NewInt(1))
	}
	return false, d.Uint64()
}

// switchTo is the budget nb keeping b's units, capped at nb's capacity; a
// budget that was unlimited starts full.
func (b *GatewayBudget) switchTo(nb gateway.Budget) *GatewayBudget {
	n := newGatewayBudget(nb)
	if !b.Unlimited && !n.Unlimited && b.Units.Cmp(n.Cap) < 0 {
		n.Units.Set(b.Units)
	}
	return n
}

func (b *GatewayBudget) field(label string) Field {
	if b.Unlimited {
		return Field{Label: label, Text: "unlimited"}
	}
	return Field{Label: label, Text: tokensText(b.Units) + " of " + u(b.Capacity) + " tokens, +" + u(b.Rate) + "/s", Value: ratio(b.Units, b.Cap), Max: 1}
}

// GatewaySession is one session: its class, whether it is open, its
// flood (since FloodAt) and its two budgets.
type GatewaySession struct {
	Class           string
	Open, Flooding  bool
	FloodAt         uint64
	Orders, Cancels *GatewayBudget
}

// GatewayModel is the gateway's contract as plain state: the config in
// force, the gateway's one latest time seen, and the sessions by id.
type GatewayModel struct {
	Cfg      gateway.Config
	Latest   uint64
	Sessions map[uint64]*GatewaySession
}

// NewGatewayModel is New(cfg, nowNs) for a valid cfg: no sessions.
func NewGatewayModel(cfg gateway.Config, nowNs uint64) *GatewayModel {
	return &GatewayModel{Cfg: cfg, Latest: nowNs, Sessions: map[uint64]*GatewaySession{}}
}

func (m *GatewayModel) advance(now uint64) {
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
func (m *GatewayModel) Open(id uint64, class string, now uint64) error {
	m.advance(now)
	k, ok := m.Cfg.Classes[class]
	s := m.Sessions[id]
	switch {
	case !ok:
		return fmt.Errorf("no class %q", class)
	case s != nil && s.Open:
		return fmt.Errorf("session %d is open", id)
	case s == nil:
		m.Sessions[id] = &GatewaySession{Class: class, Open: true, Orders: newGatewayBudget(k.Orders), Cancels: newGatewayBudget(k.Cancels)}
	default:
		if s.Class != class {
			s.Orders, s.Cancels, s.Class = s.Orders.switchTo(k.Orders), s.Cancels.switchTo(k.Cancels), class
		}
		s.Open = true
	}
	return nil
}

// Admit decides one message.
func (m *GatewayModel) Admit(id uint64, kind gateway.Kind, now uint64) gateway.Verdict {
	m.advance(now)
	s := m.Sessions[id]
	if s == nil || !s.Open {
		return gateway.Verdict{Outcome: gateway.Disconnect}
	}
	if kind == gateway.Heartbeat {
		return gateway.Verdict{}
	}
	b, name := s.Orders, "orders"
	if kind == gateway.Cancel {
		b, name = s.Cancels, "cancels"
	}
	ok, retry := b.take()
	if ok {
		s.Flooding = false
		return gateway.Verdict{}
	}
	if !s.Flooding {
		s.Flooding, s.FloodAt = true, m.Latest
	}
	age := m.Latest - s.FloodAt
	if d := m.Cfg.DisconnectAfterNs; d > 0 && age >= d {
		s.Open, s.Flooding = false, false
		return gateway.Verdict{Outcome: gateway.Disconnect}
	}
	if q := m.Cfg.SilenceAfterNs; q > 0 && age >= q {
		return gateway.Verdict{Outcome: gateway.Silent, Budget: name, RetryAfterNs: retry}
	}
	return gateway.Verdict{Outcome: gateway.Reject, Budget: name, RetryAfterNs: retry}
}

// Reload validates cfg and refuses to drop an open session's class; else
// it refills every session at the old rates and switches each whose class
// remains to its new budgets.
func (m *GatewayModel) Reload(cfg gateway.Config, now uint64) error {
	if err := gatewayValid(cfg); err != nil {
		return err
	}
	for id, s := range m.Sessions {
		if _, ok := cfg.Classes[s.Class]; s.Open && !ok {
			return fmt.Errorf("session %d's class %q is gone", id, s.Class)
		}
	}
	m.advance(now)
	m.Cfg = cfg
	for _, s := range m.Sessions {
		if k, ok := cfg.Classes[s.Class]; ok {
			s.Orders, s.Cancels = s.Orders.switchTo(k.Orders), s.Cancels.switchTo(k.Cancels)
		}
	}
	return nil
}

// gatewayValid is the contract's Validate, reporting only whether there
// is a problem.
func gatewayValid(cfg gateway.Config) error {
	if len(cfg.Classes) == 0 {
		return fmt.Errorf("no classes")
	}
	for n, k := range cfg.Classes {
		if k.Orders.Capacity == 0 || k.Orders.RatePerSec == 0 {
			return fmt.Errorf("class %q: Orders must be limited", n)
		}
		if c := k.Cancels; c.Capacity != 0 && (c.RatePerSec == 0 || c.RatePerSec < k.Orders.RatePerSec || c.Capacity < k.Orders.Capacity) {
			return fmt.Errorf("class %q: Cancels below Orders", n)
		}
	}
	if cfg.SilenceAfterNs > 0 && cfg.DisconnectAfterNs > 0 && cfg.SilenceAfterNs >= cfg.DisconnectAfterNs {
		return fmt.Errorf("SilenceAfterNs >= DisconnectAfterNs")
	}
	return nil
}

func (m *GatewayModel) Do(c report.Call) (string, error) { return doGateway(m, c) }

// maxSessions is the most sessions drawn.
const maxSessions = 8

// State is each session (by id): open or closed, its class and flood,
// and its two budgets; then the escalation times, if any, and the clock.
func (m *GatewayModel) State() []Field {
	var out []Field
	ids := make([]uint64, 0, len(m.Sessions))
	for id := range m.Sessions {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids[:min(len(ids), maxSessions)] {
		s := m.Sessions[id]
		text := "open, " + strconv.Quote(s.Class)
		if !s.Open {
			text = "closed, " + strconv.Quote(s.Class)
		}
		if s.Flooding {
			text += "; flood since t = " + u(s.FloodAt) + " ns (" + u(m.Latest-s.FloodAt) + " ns)"
		} else {
			text += "; no flood"
		}
		out = append(out, Field{Label: "session " + u(id), Text: text}, s.Orders.field("orders"), s.Cancels.field("cancels"))
	}
	if len(ids) > maxSessions {
		out = append(out, Field{Label: "more", Text: strconv.Itoa(len(ids)-maxSessions) + " sessions not drawn"})
	}
	if len(ids) == 0 {
		out = append(out, Field{Label: "sessions", Text: "none open yet"})
	}
	if m.Cfg.SilenceAfterNs > 0 || m.Cfg.DisconnectAfterNs > 0 {
		out = append(out, Field{Label: "escalation", Text: "silent after " + nsOrNever(m.Cfg.SilenceAfterNs) + ", disconnect after " + nsOrNever(m.Cfg.DisconnectAfterNs) + " of flood"})
	}
	return append(out, Field{Label: "now", Text: "t = " + u(m.Latest) + " ns"})
}

func nsOrNever(ns uint64) string {
	if ns == 0 {
		return "never"
	}
	return u(ns) + " ns"
}

// modelGateway makes the model; a config the contract refuses cannot be
// replayed.
func modelGateway(setup report.Call) (Model, error) {
	cfg, now, err := gatewaySetup(setup)
	if err != nil {
		return nil, err
	}
	if err := gatewayValid(cfg); err != nil {
		return nil, fmt.Errorf("New: %v: the config is refused, nothing to replay", err)
	}
	return NewGatewayModel(cfg, now), nil
}
