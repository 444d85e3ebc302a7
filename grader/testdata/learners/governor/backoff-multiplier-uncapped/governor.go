package governor

import (
	"fmt"
	"math"
)

// MemoryClearStreak is the number of consecutive clean windows at or above
// the remembered congestion point after which the memory clears.
const MemoryClearStreak = 3

// Action is what one window decided.
type Action int

// The actions of Decide.
const (
	Hold Action = iota
	Double
	BackOff
	Recover
	Probe
)

// Config is a governor's fixed parameters.
type Config struct {
	Floor, Ceiling float64
	Start          float64
	Low, High      float64
}

// Decision is what one window decided.
type Decision struct {
	Action  Action
	Offer   float64
	LastBad float64
	Reason  string
}

func clamp(x, lo, hi float64) float64 {
	return math.Min(hi, math.Max(lo, x))
}

// Decide applies one window's failure fraction to the offer current.
func Decide(cfg Config, frac, current, lastBad float64) Decision {
	if frac > cfg.High {
		m := math.Max(0.25, 1-frac)
		offer := math.Max(cfg.Floor, current*m)
		return Decision{BackOff, offer, current, fmt.Sprintf("frac %.2f > high %.2f: back off x%.2f to %g", frac, cfg.High, m, offer)}
	}
	if frac > cfg.Low {
		return Decision{Hold, current, lastBad, fmt.Sprintf("frac %.2f in dead band: hold at %g", frac, current)}
	}
	if lastBad == 0 {
		offer := math.Min(cfg.Ceiling, 2*current)
		return Decision{Double, offer, lastBad, fmt.Sprintf("frac %.2f clean, no memory: double to %g", frac, offer)}
	}
	if current < 0.75*lastBad {
		offer := math.Min(1.5*current, 0.75*lastBad)
		return Decision{Recover, offer, lastBad, fmt.Sprintf("frac %.2f clean below 75%% of %g: recover to %g", frac, lastBad, offer)}
	}
	offer := math.Min(cfg.Ceiling, current+math.Max(1, 0.02*lastBad))
	return Decision{Probe, offer, lastBad, fmt.Sprintf("frac %.2f clean near %g: probe to %g", frac, lastBad, offer)}
}

// MemoryClearStep folds one window's evidence into the streak.
func MemoryClearStep(streak int, cleanAtOrAboveLastBad bool) (next int, clears bool) {
	if !cleanAtOrAboveLastBad {
		return 0, false
	}
	streak++
	if streak >= MemoryClearStreak {
		return 0, true
	}
	return streak, false
}

// Governor is an adaptive backpressure governor.
type Governor struct {
	cfg              Config
	offer, lastBad   float64
	prevFail, prevOK uint64
	streak           int
}

// New returns a governor at its opening offer.
func New(cfg Config) *Governor {
	start := cfg.Start
	if start == 0 {
		start = cfg.Floor
	}
	return &Governor{cfg: cfg, offer: clamp(start, cfg.Floor, cfg.Ceiling)}
}

func (g *Governor) hold(why string) Decision {
	g.streak = 0
	return Decision{Action: Hold, Offer: g.offer, LastBad: g.lastBad, Reason: why}
}

// Observe closes one window and commits its decision.
func (g *Governor) Observe(cumFailures, cumResolved uint64) Decision {
	if cumFailures < g.prevFail || cumResolved < g.prevOK {
		g.prevFail, g.prevOK = cumFailures, cumResolved
		return g.hold("counters reset: hold")
	}
	failed := cumFailures - g.prevFail
	resolved := cumResolved - g.prevOK
	g.prevFail, g.prevOK = cumFailures, cumResolved
	if resolved == 0 {
		return g.hold("nothing resolved: hold")
	}
	frac := float64(failed) / float64(resolved)
	d := Decide(g.cfg, frac, g.offer, g.lastBad)
	evidence := frac <= g.cfg.Low && g.lastBad > 0 && g.offer >= g.lastBad
	var clears bool
	g.streak, clears = MemoryClearStep(g.streak, evidence)
	if clears {
		d.LastBad = 0
		d.Reason += "; memory cleared"
	}
	g.offer, g.lastBad = d.Offer, d.LastBad
	return d
}

// Offer returns the committed offer.
func (g *Governor) Offer() float64 { return g.offer }

// LastBad returns the congestion memory, or 0 if there is none.
func (g *Governor) LastBad() float64 { return g.lastBad }
