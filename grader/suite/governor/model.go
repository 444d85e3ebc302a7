package governor

import (
	"ratelab/grader/check"
	gm "ratelab/grader/model"
)

// The model: the contract's governor restated for clarity, independent of
// any implementation. Comparisons are exact, as the contract writes them;
// the replay compares results with relative tolerance check.Tol.

// edgy reports whether a and b are different but within check.Tol: a comparison
// between them could go either way in a correct implementation that
// rounds differently.
func edgy(a, b float64) bool { return a != b && check.Near(a, b) }

// decision is the graded part of a Decision (Reason is not graded).
type decision struct {
	Action         Action
	Offer, LastBad float64
}

// decide is the contract's Decide (model.Decide).
func decide(cfg Config, frac, current, lastBad float64) decision {
	return decision(gm.Decide[Action](cfg, frac, current, lastBad))
}

// edgyDecide reports whether decide's outcome for these arguments hangs on
// a comparison within check.Tol.
func edgyDecide(cfg Config, frac, current, lastBad float64) bool {
	if frac > cfg.High || frac > cfg.Low || lastBad == 0 {
		return false // frac is exact; only offers are rounded
	}
	return edgy(current, 0.75*lastBad)
}

// window kinds, as the contract reads a tick (model.WindowKind).
type kind = gm.WindowKind

const (
	clean  = gm.Clean  // frac <= Low
	band   = gm.Band   // Low < frac <= High
	breach = gm.Breach // frac > High
	empty  = gm.Empty  // no resolved attempts
	reset  = gm.Reset  // a counter went backwards
)

// tick is what the model saw and did on one Observe.
type tick struct {
	kind            kind
	frac            float64 // for clean, band and breach
	before          decision
	after           decision
	evidence, clear bool
	edgy            bool // the outcome hangs on a comparison within check.Tol
}

// model is the contract's Governor (model.Governor).
type model struct{ gm.Governor[Action] }

func newModel(cfg Config) *model {
	return &model{*gm.NewGovernor[Action](cfg)}
}

// observe is Observe, with whether its outcome hangs on a comparison
// within check.Tol.
func (m *model) observe(cumFailures, cumResolved uint64) tick {
	w := m.Governor.Observe(cumFailures, cumResolved)
	t := tick{kind: w.Kind, frac: w.Frac, before: decision(w.Before), after: decision(w.After), evidence: w.Evidence, clear: w.Clear}
	if w.Kind != empty && w.Kind != reset {
		offer, lastBad := w.Before.Offer, w.Before.LastBad
		t.edgy = edgyDecide(m.Cfg, t.frac, offer, lastBad) || t.kind == clean && lastBad > 0 && edgy(offer, lastBad)
	}
	return t
}
