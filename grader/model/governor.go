package model

import (
	"math"

	"ratelab/lab/contract"
)

// GovernorConfig is the exercise's Config (lab/contract).
type GovernorConfig = contract.GovernorConfig

// GovernorAction is what a type of the governor's actions must be: the
// contract's, numbered Hold 0, Double 1, BackOff 2, Recover 3, Probe 4
// (the exercise's Action and the lab's are).
type GovernorAction interface{ ~int }

// GovernorDecision is a Decision's graded part (its Reason is not).
type GovernorDecision[A GovernorAction] struct {
	Action         A
	Offer, LastBad float64
}

// The contract's actions, whatever their type.
func actHold[A GovernorAction]() A    { return 0 }
func actDouble[A GovernorAction]() A  { return 1 }
func actBackOff[A GovernorAction]() A { return 2 }
func actRecover[A GovernorAction]() A { return 3 }
func actProbe[A GovernorAction]() A   { return 4 }

// Decide is the contract's Decide: a breach (frac > High) backs off in
// proportion to its severity, remembering the offer it failed at; the
// dead band holds; a clean window doubles without a memory, recovers by
// half below 3/4 of it, and probes by a step near it. Comparisons are
// exact, as the contract writes them; a window is clean only if frac <=
// Low, so that a frac that is no number (NaN) holds.
func Decide[A GovernorAction](cfg GovernorConfig, frac, current, lastBad float64) GovernorDecision[A] {
	switch {
	case frac > cfg.High:
		severity := math.Min(math.Max(1-frac, 0.25), 0.9)
		return GovernorDecision[A]{actBackOff[A](), math.Max(cfg.Floor, current*severity), current}
	case !(frac <= cfg.Low): // the dead band
		return GovernorDecision[A]{actHold[A](), current, lastBad}
	case lastBad == 0: // unexplored: slow start
		return GovernorDecision[A]{actDouble[A](), math.Min(cfg.Ceiling, 2*current), 0}
	case current < 0.75*lastBad: // the proven-safe zone
		return GovernorDecision[A]{actRecover[A](), math.Min(1.5*current, 0.75*lastBad), lastBad}
	default: // near the wall: additive probe
		return GovernorDecision[A]{actProbe[A](), math.Min(cfg.Ceiling, current+math.Max(1, 0.02*lastBad)), lastBad}
	}
}

// MemoryClearStreak is the number of clean windows in a row, at or above
// LastBad, that clear the congestion memory.
const MemoryClearStreak = 3

// MemoryClearStep is the contract's MemoryClearStep: a window with
// evidence adds to the streak, and the MemoryClearStreak-th clears the
// memory and starts it again; one without starts it again.
func MemoryClearStep(streak int, evidence bool) (int, bool) {
	if !evidence {
		return 0, false
	}
	streak++
	if streak == MemoryClearStreak {
		return 0, true
	}
	return streak, false
}

// OpeningOffer is a new governor's offer: Start (Floor if 0) clamped
// into [Floor, Ceiling].
func OpeningOffer(cfg GovernorConfig) float64 {
	start := cfg.Start
	if start == 0 {
		start = cfg.Floor
	}
	return math.Min(math.Max(start, cfg.Floor), cfg.Ceiling)
}

// WindowKind is how the governor reads a window.
type WindowKind int

const (
	Clean  WindowKind = iota // frac <= Low
	Band                     // Low < frac <= High: the dead band
	Breach                   // frac > High
	Empty                    // no resolved attempts
	Reset                    // a counter went backwards
)

// Classify reads a window's failure fraction.
func Classify(cfg GovernorConfig, frac float64) WindowKind {
	switch {
	case frac > cfg.High:
		return Breach
	case frac > cfg.Low:
		return Band
	}
	return Clean
}

// GovernorWindow is what the governor saw and did on one Observe: the
// window's kind and fraction (of a Clean, Band or Breach window), its
// decision before (Hold at the committed offer) and after, whether the
// window was evidence for clearing the memory, and whether it cleared it.
type GovernorWindow[A GovernorAction] struct {
	Kind            WindowKind
	Frac            float64
	Before, After   GovernorDecision[A]
	Evidence, Clear bool
}

// Governor is the contract's Governor (the doc of exercises/governor):
// the committed offer, the congestion memory LastBad (0: none), the
// streak of clean windows at or above LastBad, and the counters'
// baseline.
type Governor[A GovernorAction] struct {
	Cfg                GovernorConfig
	Offer, LastBad     float64
	Streak             int
	Failures, Resolved uint64
}

// NewGovernor is New(cfg): the opening offer, no memory, the counters'
// baseline 0.
func NewGovernor[A GovernorAction](cfg GovernorConfig) *Governor[A] {
	return &Governor[A]{Cfg: cfg, Offer: OpeningOffer(cfg)}
}

// Observe closes one window from the counters' deltas. A window without
// resolved attempts, or counters that went back (taken as the new
// baseline), holds and starts the streak again.
func (m *Governor[A]) Observe(cumFailures, cumResolved uint64) GovernorWindow[A] {
	w := GovernorWindow[A]{Before: GovernorDecision[A]{actHold[A](), m.Offer, m.LastBad}}
	if cumFailures < m.Failures || cumResolved < m.Resolved {
		m.Failures, m.Resolved, m.Streak = cumFailures, cumResolved, 0
		w.Kind, w.After = Reset, w.Before
		return w
	}
	failed, resolved := cumFailures-m.Failures, cumResolved-m.Resolved
	m.Failures, m.Resolved = cumFailures, cumResolved
	if resolved == 0 {
		m.Streak = 0
		w.Kind, w.After = Empty, w.Before
		return w
	}
	w.Frac = float64(failed) / float64(resolved)
	w.Kind = Classify(m.Cfg, w.Frac)
	w.After = Decide[A](m.Cfg, w.Frac, m.Offer, m.LastBad)
	w.Evidence = w.Kind == Clean && m.LastBad > 0 && m.Offer >= m.LastBad
	m.Streak, w.Clear = MemoryClearStep(m.Streak, w.Evidence)
	if w.Clear {
		w.After.LastBad = 0
	}
	m.Offer, m.LastBad = w.After.Offer, w.After.LastBad
	return w
}
