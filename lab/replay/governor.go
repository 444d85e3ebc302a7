package replay

import (
	"fmt"
	"math"
	"strconv"

	"ratelab/grader/report"
	"ratelab/lab/adaptive"
)

// The week 4 throttle governor: offer, congestion memory (LastBad) and the
// streak of clean windows that clears it.
func init() {
	register(Exercise{ID: "governor", Build: buildGovernor, Model: modelGovernor})
}

// governorSetup reads New(cfg) with cfg = Config{…}. It refuses, as the
// reference would by panicking, a config outside the contract.
func governorSetup(c report.Call) (cfg adaptive.GovernorConfig, err error) {
	if err = want(c, "New"); err != nil {
		return cfg, err
	}
	s, err := structArg(c, "cfg")
	if err != nil {
		return cfg, err
	}
	for _, f := range []struct {
		name string
		to   *float64
	}{{"Floor", &cfg.Floor}, {"Ceiling", &cfg.Ceiling}, {"Start", &cfg.Start}, {"Low", &cfg.Low}, {"High", &cfg.High}} {
		if *f.to, err = argFloat(s, f.name); err != nil {
			return cfg, err
		}
	}
	if !(cfg.Floor > 0 && cfg.Ceiling >= cfg.Floor && cfg.Low >= 0 && cfg.High >= cfg.Low) || math.IsNaN(cfg.Start) {
		return cfg, fmt.Errorf("New: %+v is outside the contract (0 < Floor <= Ceiling, 0 <= Low <= High): nothing to replay", cfg)
	}
	return cfg, nil
}

// governorAPI is what a replay calls: Observe, and Offer.
type governorAPI interface {
	Observe(cumFailures, cumResolved uint64) adaptive.Decision
	Offer() float64
}

// floatText is x as the grader prints the governor's and Gradient2's
// numbers: 10 significant digits, so that two answers within the
// contract's relative tolerance of 1e-9 read the same.
func floatText(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

func doGovernor(g governorAPI, c report.Call) (string, error) {
	switch c.Name {
	case "Observe":
		f, err := argU64(c, "cumFailures")
		if err != nil {
			return "", err
		}
		r, err := argU64(c, "cumResolved")
		if err != nil {
			return "", err
		}
		d := g.Observe(f, r)
		return fmt.Sprintf("{Action: %s, Offer: %s, LastBad: %s}", actionName(d.Action), floatText(d.Offer), floatText(d.LastBad)), nil
	case "Offer":
		return floatText(g.Offer()), nil
	}
	return "", want(c, "Observe", "Offer")
}

// actionName is a as the exercise's constant is named ("BackOff"), as the
// grader prints it.
func actionName(a adaptive.Action) string {
	names := []string{"Hold", "Double", "BackOff", "Recover", "Probe"}
	if a >= 0 && int(a) < len(names) {
		return names[a]
	}
	return "Action(" + strconv.Itoa(int(a)) + ")"
}

type governorCalls struct{ g adaptive.Governor }

func (x governorCalls) Do(c report.Call) (string, error) { return doGovernor(x.g, c) }

func buildGovernor(impls Impls, setup report.Call) (Instance, error) {
	cfg, err := governorSetup(setup)
	if err != nil {
		return nil, err
	}
	if impls.Adaptive.NewGovernor == nil {
		return nil, errMissing(impls.Adaptive.Missing)
	}
	return governorCalls{impls.Adaptive.NewGovernor(cfg)}, nil
}

// MemoryClearStreak is the governor contract's number of clean windows in
// a row, at or above LastBad, that clear the congestion memory.
const MemoryClearStreak = 3

// GovernorModel is the governor's contract as plain state: the committed
// offer, the congestion memory LastBad (0: none), the streak of clean
// windows at or above LastBad, and the counters' baseline. Window
// describes the last window seen, in words.
type GovernorModel struct {
	Cfg                adaptive.GovernorConfig
	Offer, LastBad     float64
	Streak             int
	Failures, Resolved uint64
	Window             string
}

// NewGovernorModel is New(cfg): the opening offer is Start (Floor if 0)
// clamped into [Floor, Ceiling], no memory, the counters' baseline 0.
func NewGovernorModel(cfg adaptive.GovernorConfig) *GovernorModel {
	start := cfg.Start
	if start == 0 {
		start = cfg.Floor
	}
	return &GovernorModel{Cfg: cfg, Offer: math.Min(math.Max(start, cfg.Floor), cfg.Ceiling), Window: "none yet"}
}

// Observe closes one window from the counters' deltas. A window without
// resolved attempts, or counters that went back (taken as the new
// baseline), holds and restarts the streak.
func (m *GovernorModel) Observe(cumFailures, cumResolved uint64) adaptive.Decision {
	hold := adaptive.Decision{Action: adaptive.Hold, Offer: m.Offer, LastBad: m.LastBad}
	if cumFailures < m.Failures || cumResolved < m.Resolved {
		m.Failures, m.Resolved, m.Streak = cumFailures, cumResolved, 0
		m.Window = "counters went back: a reset, the new baseline"
		return hold
	}
	failed, resolved := cumFailures-m.Failures, cumResolved-m.Resolved
	m.Failures, m.Resolved = cumFailures, cumResolved
	if resolved == 0 {
		m.Streak = 0
		m.Window = "nothing resolved: no evidence"
		return hold
	}
	frac := float64(failed) / float64(resolved)
	d := m.decide(frac)
	evidence := frac <= m.Cfg.Low && m.LastBad > 0 && m.Offer >= m.LastBad
	m.Streak++
	if !evidence {
		m.Streak = 0
	} else if m.Streak == MemoryClearStreak {
		m.Streak, d.LastBad = 0, 0
	}
	m.Window = fmt.Sprintf("%s of %s failed (frac %s): %s", u(failed), u(resolved), floatText(frac), m.kind(frac))
	m.Offer, m.LastBad = d.Offer, d.LastBad
	return d
}

func (m *GovernorModel) kind(frac float64) string {
	switch {
	case frac > m.Cfg.High:
		return "breach, above High " + floatText(m.Cfg.High)
	case frac > m.Cfg.Low:
		return "dead band, hold"
	}
	return "clean, at most Low " + floatText(m.Cfg.Low)
}

// decide is the contract's Decide with the committed offer and memory.
func (m *GovernorModel) decide(frac float64) adaptive.Decision {
	cfg, cur := m.Cfg, m.Offer
	switch {
	case frac > cfg.High:
		return adaptive.Decision{Action: adaptive.BackOff, Offer: math.Max(cfg.Floor, cur*math.Min(math.Max(1-frac, 0.25), 0.9)), LastBad: cur}
	case frac > cfg.Low:
		return adaptive.Decision{Action: adaptive.Hold, Offer: cur, LastBad: m.LastBad}
	case m.LastBad == 0:
		return adaptive.Decision{Action: adaptive.Double, Offer: math.Min(cfg.Ceiling, 2*cur)}
	case cur < 0.75*m.LastBad:
		return adaptive.Decision{Action: adaptive.Recover, Offer: math.Min(1.5*cur, 0.75*m.LastBad), LastBad: m.LastBad}
	}
	return adaptive.Decision{Action: adaptive.Probe, Offer: math.Min(cfg.Ceiling, cur+math.Max(1, 0.02*m.LastBad)), LastBad: m.LastBad}
}

func (m *GovernorModel) Do(c report.Call) (string, error) { return doGovernor(governorModelAPI{m}, c) }

type governorModelAPI struct{ m *GovernorModel }

func (a governorModelAPI) Observe(f, r uint64) adaptive.Decision { return a.m.Observe(f, r) }
func (a governorModelAPI) Offer() float64                        { return a.m.Offer }

// State is the offer against [Floor, Ceiling], the memory LastBad, the
// streak towards clearing it, and the last window.
func (m *GovernorModel) State() []Field {
	span := m.Cfg.Ceiling - m.Cfg.Floor
	offer := Field{Label: "offer", Text: floatText(m.Offer) + " in [" + floatText(m.Cfg.Floor) + ", " + floatText(m.Cfg.Ceiling) + "]", Max: 1}
	if span > 0 {
		offer.Value = (m.Offer - m.Cfg.Floor) / span
	} else {
		offer.Value = 1
	}
	lastBad := Field{Label: "last_bad", Text: "none (unexplored)"}
	if m.LastBad > 0 {
		lastBad.Text = floatText(m.LastBad) + " (recover below " + floatText(0.75*m.LastBad) + ", probe at or above)"
		lastBad.Value, lastBad.Max = m.LastBad, m.Cfg.Ceiling
	}
	return []Field{
		offer,
		lastBad,
		{Label: "streak", Text: strconv.Itoa(m.Streak) + " of " + strconv.Itoa(MemoryClearStreak) + " clean windows at or above last_bad", Value: float64(m.Streak), Max: MemoryClearStreak},
		{Label: "window", Text: m.Window},
	}
}

func modelGovernor(setup report.Call) (Model, error) {
	cfg, err := governorSetup(setup)
	if err != nil {
		return nil, err
	}
	return NewGovernorModel(cfg), nil
}
