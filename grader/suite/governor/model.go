package governor

import (
	"math"

	"ratelab/grader/check"
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

// decide is the contract's Decide.
func decide(cfg Config, frac, current, lastBad float64) decision {
	breach := frac > cfg.High
	clean := frac <= cfg.Low
	switch {
	case breach:
		severity := math.Min(math.Max(1-frac, 0.25), 0.9)
		return decision{BackOff, math.Max(cfg.Floor, current*severity), current}
	case !clean: // the dead band
		return decision{Hold, current, lastBad}
	case lastBad == 0: // unexplored: slow start
		return decision{Double, math.Min(cfg.Ceiling, 2*current), 0}
	case current < 0.75*lastBad: // the proven-safe zone
		return decision{Recover, math.Min(1.5*current, 0.75*lastBad), lastBad}
	default: // near the wall: additive probe
		return decision{Probe, math.Min(cfg.Ceiling, current+math.Max(1, 0.02*lastBad)), lastBad}
	}
}

// edgyDecide reports whether decide's outcome for these arguments hangs on
// a comparison within check.Tol.
func edgyDecide(cfg Config, frac, current, lastBad float64) bool {
	if frac > cfg.High || frac > cfg.Low || lastBad == 0 {
		return false // frac is exact; only offers are rounded
	}
	return edgy(current, 0.75*lastBad)
}

// memoryClearStep is the contract's MemoryClearStep.
func memoryClearStep(streak int, evidence bool) (int, bool) {
	if !evidence {
		return 0, false
	}
	streak++
	if streak == MemoryClearStreak {
		return 0, true
	}
	return streak, false
}

// openingOffer is the offer of a new governor.
func openingOffer(cfg Config) float64 {
	start := cfg.Start
	if start == 0 {
		start = cfg.Floor
	}
	return math.Min(math.Max(start, cfg.Floor), cfg.Ceiling)
}

// window kinds, as the contract reads a tick.
type kind int

const (
	clean  kind = iota // frac <= Low
	band               // Low < frac <= High
	breach             // frac > High
	empty              // no resolved attempts
	reset              // a counter went backwards
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

// model is the contract's Governor.
type model struct {
	cfg                Config
	offer, lastBad     float64
	streak             int
	failures, resolved uint64
}

func newModel(cfg Config) *model { return &model{cfg: cfg, offer: openingOffer(cfg)} }

func (m *model) observe(cumFailures, cumResolved uint64) tick {
	t := tick{before: decision{Hold, m.offer, m.lastBad}}
	if cumFailures < m.failures || cumResolved < m.resolved {
		m.failures, m.resolved, m.streak = cumFailures, cumResolved, 0
		t.kind, t.after = reset, t.before
		return t
	}
	failed, resolved := cumFailures-m.failures, cumResolved-m.resolved
	m.failures, m.resolved = cumFailures, cumResolved
	if resolved == 0 {
		m.streak = 0
		t.kind, t.after = empty, t.before
		return t
	}
	t.frac = float64(failed) / float64(resolved)
	t.kind = classify(m.cfg, t.frac)
	t.after = decide(m.cfg, t.frac, m.offer, m.lastBad)
	t.edgy = edgyDecide(m.cfg, t.frac, m.offer, m.lastBad) ||
		t.kind == clean && m.lastBad > 0 && edgy(m.offer, m.lastBad)
	t.evidence = t.kind == clean && m.lastBad > 0 && m.offer >= m.lastBad
	m.streak, t.clear = memoryClearStep(m.streak, t.evidence)
	if t.clear {
		t.after.LastBad = 0
	}
	m.offer, m.lastBad = t.after.Offer, t.after.LastBad
	return t
}

func classify(cfg Config, frac float64) kind {
	switch {
	case frac > cfg.High:
		return breach
	case frac > cfg.Low:
		return band
	}
	return clean
}
