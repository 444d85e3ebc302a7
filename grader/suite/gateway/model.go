package gateway

import (
	"fmt"
	"math/big"
	"slices"

	gm "ratelab/grader/model"
)

// unitsPerToken is the contract's fixed-point scale: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

// model is the contract's gateway (model.Gateway), with the config in
// force as given.
type model struct {
	gm.Gateway[Kind, Outcome]
	cfg Config
}

func newModel(cfg Config, now uint64) *model {
	return &model{Gateway: *gm.NewGateway[Kind, Outcome](modelConfig(cfg), now), cfg: cfg}
}

// modelConfig is cfg in the model's types.
func modelConfig(cfg Config) gm.GatewayConfig {
	return gm.GatewayConfigOf(cfg.Classes, cfg.SilenceAfterNs, cfg.DisconnectAfterNs)
}

// open is Open, reporting whether it is an error.
func (m *model) open(id uint64, class string, now uint64) (wantErr bool) {
	return m.Open(id, class, now) != nil
}

func (m *model) admit(id uint64, kind Kind, now uint64) Verdict {
	return Verdict(m.Admit(id, kind, now))
}

// reload is Reload, reporting whether it is an error.
func (m *model) reload(cfg Config, now uint64) (wantErr bool) {
	if m.Reload(modelConfig(cfg), now) != nil {
		return true
	}
	m.cfg = cfg
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
