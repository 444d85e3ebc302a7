package replay

import (
	"fmt"
	"math"
	"strconv"

	gm "ratelab/grader/model"
	"ratelab/grader/report"
	"ratelab/lab/adaptive"
)

// The week 4 throttle governor: offer, congestion memory (LastBad) and the
// streak of clean windows that clears it.
func init() {
	register(Exercise{ID: "governor", Build: buildGovernor, Model: modelGovernor, Binding: governorBinding})
}

// governorBinding reads the setups of the governor's pure functions,
// which call nothing: "cfg = Config{…}" before calls of Decide(cfg, …)
// becomes a call named cfg with the argument cfg, and "MemoryClearStreak =
// 3; …" before calls of MemoryClearStep a call named MemoryClearStreak.
func governorBinding(setup string) (report.Call, bool) {
	name, value, ok := cutTop(setup, '=')
	switch {
	case !ok:
		return report.Call{}, false
	case name == "cfg":
		if _, err := literal(value); err != nil {
			return report.Call{}, false
		}
		return report.Call{Name: "cfg", Args: map[string]any{"cfg": value}}, true
	case name == "MemoryClearStreak":
		return report.Call{Name: "MemoryClearStreak", Args: map[string]any{}}, true
	}
	return report.Call{}, false
}

// governorSetup reads New(cfg) with cfg = Config{…}. It refuses, as the
// reference would by panicking, a config outside the contract.
func governorSetup(c report.Call) (cfg adaptive.GovernorConfig, err error) {
	if err = want(c, "New"); err != nil {
		return cfg, err
	}
	if cfg, err = governorConfig(c); err != nil {
		return cfg, err
	}
	if !(cfg.Floor > 0 && cfg.Ceiling >= cfg.Floor && cfg.Low >= 0 && cfg.High >= cfg.Low) || math.IsNaN(cfg.Start) {
		return cfg, fmt.Errorf("New: %+v is outside the contract (0 < Floor <= Ceiling, 0 <= Low <= High): nothing to replay", cfg)
	}
	return cfg, nil
}

// governorConfig reads c's argument cfg.
func governorConfig(c report.Call) (cfg adaptive.GovernorConfig, err error) {
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
		return decisionText(g.Observe(f, r)), nil
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
	switch setup.Name {
	case "cfg":
		cfg, err := governorConfig(setup)
		if err != nil {
			return nil, err
		}
		if impls.Week4.Decide == nil {
			return nil, errMissing(impls.Adaptive.Missing)
		}
		return decideCalls{cfg, impls.Week4.Decide}, nil
	case "MemoryClearStreak":
		if impls.Week4.MemoryClearStep == nil {
			return nil, errMissing(impls.Adaptive.Missing)
		}
		return streakCalls{impls.Week4.MemoryClearStep}, nil
	}
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
const MemoryClearStreak = gm.MemoryClearStreak

// GovernorModel is the governor's contract as plain state (the grader's
// model.Governor): the committed offer, the congestion memory LastBad (0:
// none), the streak of clean windows at or above LastBad, and the
// counters' baseline. Window describes the last window seen, in words.
type GovernorModel struct {
	gm.Governor[adaptive.Action]
	Window string
}

// NewGovernorModel is New(cfg): the opening offer is Start (Floor if 0)
// clamped into [Floor, Ceiling], no memory, the counters' baseline 0.
func NewGovernorModel(cfg adaptive.GovernorConfig) *GovernorModel {
	return &GovernorModel{Governor: *gm.NewGovernor[adaptive.Action](cfg), Window: "none yet"}
}

// Observe closes one window from the counters' deltas. A window without
// resolved attempts, or counters that went back (taken as the new
// baseline), holds and restarts the streak.
func (m *GovernorModel) Observe(cumFailures, cumResolved uint64) adaptive.Decision {
	failed, resolved := cumFailures-m.Failures, cumResolved-m.Resolved // not shown for a reset
	w := m.Governor.Observe(cumFailures, cumResolved)
	switch w.Kind {
	case gm.Reset:
		m.Window = "counters went back: a reset, the new baseline"
	case gm.Empty:
		m.Window = "nothing resolved: no evidence"
	default:
		m.Window = fmt.Sprintf("%s of %s failed (frac %s): %s", u(failed), u(resolved), floatText(w.Frac), m.kind(w.Kind))
	}
	return decision(w.After)
}

func (m *GovernorModel) kind(k gm.WindowKind) string {
	switch k {
	case gm.Breach:
		return "breach, above High " + floatText(m.Cfg.High)
	case gm.Band:
		return "dead band, hold"
	}
	return "clean, at most Low " + floatText(m.Cfg.Low)
}

// decide is the contract's Decide (the grader's model.Decide).
func decide(cfg adaptive.GovernorConfig, frac, cur, lastBad float64) adaptive.Decision {
	return decision(gm.Decide[adaptive.Action](cfg, frac, cur, lastBad))
}

// decision is d as the lab's Decision.
func decision(d gm.GovernorDecision[adaptive.Action]) adaptive.Decision {
	return adaptive.Decision{Action: d.Action, Offer: d.Offer, LastBad: d.LastBad}
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
	switch setup.Name {
	case "cfg":
		cfg, err := governorConfig(setup)
		if err != nil {
			return nil, err
		}
		return &DecideModel{Cfg: cfg}, nil
	case "MemoryClearStreak":
		return &StreakModel{}, nil
	}
	cfg, err := governorSetup(setup)
	if err != nil {
		return nil, err
	}
	return NewGovernorModel(cfg), nil
}

// decisionText is a Decision as the grader writes it.
func decisionText(d adaptive.Decision) string {
	return fmt.Sprintf("{Action: %s, Offer: %s, LastBad: %s}", actionName(d.Action), floatText(d.Offer), floatText(d.LastBad))
}

// decideCalls replays calls of the pure Decide(cfg, frac, current,
// lastBad) with the cfg of the setup.
type decideCalls struct {
	cfg    adaptive.GovernorConfig
	decide func(cfg adaptive.GovernorConfig, frac, current, lastBad float64) adaptive.Decision
}

func (x decideCalls) Do(c report.Call) (string, error) {
	frac, current, lastBad, err := decideArgs(c)
	if err != nil {
		return "", err
	}
	return decisionText(x.decide(x.cfg, frac, current, lastBad)), nil
}

func decideArgs(c report.Call) (frac, current, lastBad float64, err error) {
	if err = want(c, "Decide"); err != nil {
		return
	}
	if frac, err = argFloat(c, "frac"); err != nil {
		return
	}
	if current, err = argFloat(c, "current"); err != nil {
		return
	}
	lastBad, err = argFloat(c, "lastBad")
	return
}

// DecideModel is the contract's pure Decide: no state of its own, so it
// shows the latest call's inputs and the rule they fall under.
type DecideModel struct {
	Cfg                    adaptive.GovernorConfig
	Frac, Current, LastBad float64
	Called                 bool
}

func (m *DecideModel) Do(c report.Call) (string, error) {
	frac, current, lastBad, err := decideArgs(c)
	if err != nil {
		return "", err
	}
	m.Frac, m.Current, m.LastBad, m.Called = frac, current, lastBad, true
	return decisionText(decide(m.Cfg, frac, current, lastBad)), nil
}

// State is the config before any call; after one, the window's frac
// against Low and High, the offer against 75% of last_bad, and the rule.
func (m *DecideModel) State() []Field {
	cfg := []Field{{Label: "cfg", Text: fmt.Sprintf("offer in [%s, %s]; clean at frac <= %s, breach above %s",
		floatText(m.Cfg.Floor), floatText(m.Cfg.Ceiling), floatText(m.Cfg.Low), floatText(m.Cfg.High))}}
	if !m.Called {
		return cfg
	}
	var rule string
	switch {
	case m.Frac > m.Cfg.High:
		rule = "breach: back off to max(Floor, current × clamp(1 − frac, 0.25, 0.9)), last_bad = current"
	case m.Frac > m.Cfg.Low:
		rule = "dead band: hold, nothing changes"
	case m.LastBad == 0:
		rule = "clean, no memory: double, up to Ceiling"
	case m.Current < 0.75*m.LastBad:
		rule = "clean below 75% of last_bad (" + floatText(0.75*m.LastBad) + "): recover ×1.5, up to it"
	default:
		rule = "clean at or above 75% of last_bad (" + floatText(0.75*m.LastBad) + "): probe + max(1, 2% of last_bad)"
	}
	lastBad := "none"
	if m.LastBad > 0 {
		lastBad = floatText(m.LastBad)
	}
	return append(cfg,
		Field{Label: "frac", Text: floatText(m.Frac) + " (Low " + floatText(m.Cfg.Low) + ", High " + floatText(m.Cfg.High) + ")"},
		Field{Label: "offer", Text: floatText(m.Current) + ", last_bad " + lastBad},
		Field{Label: "rule", Text: rule},
	)
}

// streakCalls replays calls of the pure MemoryClearStep.
type streakCalls struct {
	step func(streak int, cleanAtOrAboveLastBad bool) (int, bool)
}

func (x streakCalls) Do(c report.Call) (string, error) {
	streak, evidence, err := streakArgs(c)
	if err != nil {
		return "", err
	}
	next, clears := x.step(streak, evidence)
	return strconv.Itoa(next) + ", " + bool2(clears), nil
}

func streakArgs(c report.Call) (streak int, evidence bool, err error) {
	if err = want(c, "MemoryClearStep"); err != nil {
		return
	}
	if streak, err = argInt(c, "streak"); err != nil {
		return
	}
	evidence, err = argBool(c, "cleanAtOrAboveLastBad")
	return
}

// StreakModel is the contract's pure MemoryClearStep; it shows the
// streak the latest call returned against MemoryClearStreak.
type StreakModel struct {
	Next   int
	Clears bool
}

func (m *StreakModel) Do(c report.Call) (string, error) {
	streak, evidence, err := streakArgs(c)
	if err != nil {
		return "", err
	}
	m.Next, m.Clears = gm.MemoryClearStep(streak, evidence)
	return strconv.Itoa(m.Next) + ", " + bool2(m.Clears), nil
}

// State is the streak returned, against MemoryClearStreak.
func (m *StreakModel) State() []Field {
	text := strconv.Itoa(m.Next) + " of " + strconv.Itoa(MemoryClearStreak) + " clean windows in a row at or above last_bad"
	if m.Clears {
		text = "0: the memory clears"
	}
	return []Field{{Label: "streak", Text: text, Value: float64(m.Next), Max: MemoryClearStreak}}
}
