package replay

import (
	"fmt"
	"slices"
	"strconv"

	gm "ratelab/grader/model"
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

// budgetField shows a budget of a session.
func budgetField(b *gm.GatewayBucket, label string) Field {
	if b.Unlimited {
		return Field{Label: label, Text: "unlimited"}
	}
	return Field{Label: label, Text: tokensText(b.Units) + " of " + u(b.Capacity) + " tokens, +" + u(b.Rate) + "/s", Value: ratio(b.Units, b.Cap), Max: 1}
}

// GatewayModel is the gateway's contract as plain state (the grader's
// model.Gateway): the config in force, the gateway's one latest time
// seen, and the sessions by id.
type GatewayModel struct {
	gm.Gateway[gateway.Kind, gateway.Outcome]
}

// NewGatewayModel is New(cfg, nowNs) for a valid cfg: no sessions.
func NewGatewayModel(cfg gateway.Config, nowNs uint64) *GatewayModel {
	return &GatewayModel{*gm.NewGateway[gateway.Kind, gateway.Outcome](cfg, nowNs)}
}

// Admit decides one message.
func (m *GatewayModel) Admit(id uint64, kind gateway.Kind, now uint64) gateway.Verdict {
	return gateway.Verdict(m.Gateway.Admit(id, kind, now))
}

// Reload validates cfg and refuses to drop an open session's class; else
// it refills every session at the old rates and switches each whose class
// remains to its new budgets.
func (m *GatewayModel) Reload(cfg gateway.Config, now uint64) error {
	return m.Gateway.Reload(cfg, now)
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
		out = append(out, Field{Label: "session " + u(id), Text: text}, budgetField(s.Orders, "orders"), budgetField(s.Cancels, "cancels"))
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
	if err := gm.GatewayValid(cfg); err != nil {
		return nil, fmt.Errorf("New: %v: the config is refused, nothing to replay", err)
	}
	return NewGatewayModel(cfg, now), nil
}
