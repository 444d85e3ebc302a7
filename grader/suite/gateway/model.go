package gateway

import (
	"math/big"

	gm "ratelab/grader/model"
)

// unitsPerToken is the contract's fixed-point scale: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

// model is the contract's gateway (model.Gateway): its Cfg is the config
// in force.
type model struct{ gm.Gateway[Kind, Outcome] }

func newModel(cfg Config, now uint64) *model {
	return &model{*gm.NewGateway[Kind, Outcome](cfg, now)}
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
	return m.Reload(cfg, now) != nil
}

// problem is one thing Validate must name (model.GatewayProblem).
type problem = gm.GatewayProblem

// problems lists what is wrong with cfg, per the contract; nil if nothing.
func problems(cfg Config) []problem { return gm.GatewayProblems(cfg) }
