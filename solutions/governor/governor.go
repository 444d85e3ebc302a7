package governor

import (
	"math"
	"strconv"
)

// MemoryClearStreak is the number of consecutive clean windows at or above
// the remembered congestion point after which the memory clears. The
// additive probe keeps stepping through the streak, so clearing means the
// target stayed clean over a rising run of offers, not one lucky window.
const MemoryClearStreak = 3

// Action is what one window decided.
type Action int

// The actions of Decide, one per rule.
const (
	Hold    Action = iota // dead band, or a window without evidence: nothing moves
	Double                // clean, no congestion memory: slow start
	BackOff               // breach: multiply by clamp(1-frac, 0.25, 0.9)
	Recover               // clean, below 75% of LastBad: x1.5, capped there
	Probe                 // clean, at or above 75% of LastBad: additive step
)

// Config is a governor's fixed parameters. Floor, Ceiling and Start are in
// the unit of the offer (a concurrency, or a rate); Low and High are
// attempt-failure fractions in [0, 1].
type Config struct {
	Floor, Ceiling float64 // the offer never leaves [Floor, Ceiling]; Ceiling is the authored concurrency or rate
	Start          float64 // opening offer; 0 means Floor
	Low, High      float64 // frac <= Low: clean window; frac > High: breach; in between: hold (dead band)
}

// Decision is what one window decided.
type Decision struct {
	Action  Action
	Offer   float64 // the offer for the next window
	LastBad float64 // congestion memory after this window; 0 means none (unexplored)
	Reason  string  // one line naming the signal and the move
}

// Decide applies one window's attempt-failure fraction frac to the committed
// offer current, given the congestion memory lastBad (0: none). It is pure.
//
// The breach test comes first, so with Low >= High there is no dead band.
// The rules, in order:
//
//   - frac > High: BackOff, Offer = max(Floor, current*clamp(1-frac, 0.25,
//     0.9)), LastBad = current.
//   - frac > Low: Hold; Offer and LastBad are current and lastBad.
//   - clean and lastBad == 0: Double, Offer = min(Ceiling, 2*current).
//   - clean and current < 0.75*lastBad: Recover,
//     Offer = min(1.5*current, 0.75*lastBad).
//   - clean otherwise: Probe, Offer = min(Ceiling, current+max(1, 0.02*lastBad)).
//
// A clean window never changes LastBad. Decide trusts its arguments: with
// current in [Floor, Ceiling] and lastBad 0 or in [Floor, Ceiling], as a
// Governor always passes them, the offer stays in [Floor, Ceiling].
func Decide(cfg Config, frac, current, lastBad float64) Decision {
	switch {
	case frac > cfg.High:
		factor := min(max(1-frac, 0.25), 0.9)
		offer := max(cfg.Floor, current*factor)
		why := "frac " + num(frac) + " > high " + num(cfg.High) + ": back off x" + num(factor) + " to " + num(offer)
		if current*factor < cfg.Floor {
			why += " (floor)"
		}
		return Decision{Action: BackOff, Offer: offer, LastBad: current, Reason: why}

	case frac > cfg.Low:
		why := "frac " + num(frac) + " in dead band (" + num(cfg.Low) + ", " + num(cfg.High) + "]: hold at " + num(current)
		return Decision{Action: Hold, Offer: current, LastBad: lastBad, Reason: why}

	case lastBad == 0:
		offer := min(cfg.Ceiling, 2*current)
		why := "frac " + num(frac) + " <= low " + num(cfg.Low) + ", no congestion memory: double to " + num(offer)
		if offer < 2*current {
			why += " (ceiling)"
		}
		return Decision{Action: Double, Offer: offer, LastBad: 0, Reason: why}

	case current < 0.75*lastBad:
		offer := min(1.5*current, 0.75*lastBad)
		why := "frac " + num(frac) + " <= low " + num(cfg.Low) + ", below 75% of last bad " + num(lastBad) + ": recover x1.5 to " + num(offer)
		return Decision{Action: Recover, Offer: offer, LastBad: lastBad, Reason: why}

	default:
		step := max(1, 0.02*lastBad)
		offer := min(cfg.Ceiling, current+step)
		why := "frac " + num(frac) + " <= low " + num(cfg.Low) + ", at or above 75% of last bad " + num(lastBad) + ": probe +" + num(step) + " to " + num(offer)
		return Decision{Action: Probe, Offer: offer, LastBad: lastBad, Reason: why}
	}
}

// MemoryClearStep folds one window's evidence into the running streak of
// clean windows at or above the remembered congestion point. It returns the
// next streak, and whether the memory clears on this window: when the
// streak reaches MemoryClearStreak it restarts at 0 and clears is true. A
// window without evidence (a breach, a hold, a clean window below the
// point, a window without attempts) returns (0, false). It is pure.
func MemoryClearStep(streak int, cleanAtOrAboveLastBad bool) (next int, clears bool) {
	if !cleanAtOrAboveLastBad {
		return 0, false
	}
	if streak+1 >= MemoryClearStreak {
		return 0, true
	}
	return streak + 1, false
}

// Governor turns the cumulative attempt counters of a drain loop into an
// offer, one window per Observe call.
//
// The zero value is not usable: use New. A Governor is not safe for
// concurrent use; one drain loop owns it.
type Governor struct {
	cfg      Config
	offer    float64 // committed offer
	lastBad  float64 // congestion memory, 0: none
	streak   int     // consecutive clean windows at or above lastBad
	failures uint64  // counters at the previous tick: the window's baseline
	resolved uint64
}

// New returns a governor whose opening offer is cfg.Start (cfg.Floor if
// Start is 0) clamped into [Floor, Ceiling], with no congestion memory and
// counter baselines of 0.
//
// New panics, naming the field, unless 0 < Floor <= Ceiling and
// 0 <= Low <= High (NaN fails every test): a floor of 0 would double to 0
// forever, and a band upside down has no meaning.
func New(cfg Config) *Governor {
	switch {
	case !(cfg.Floor > 0):
		panic("governor: Config.Floor must be > 0, got " + exact(cfg.Floor))
	case !(cfg.Ceiling >= cfg.Floor):
		panic("governor: Config.Ceiling must be >= Floor (" + exact(cfg.Floor) + "), got " + exact(cfg.Ceiling))
	case !(cfg.Low >= 0):
		panic("governor: Config.Low must be >= 0, got " + exact(cfg.Low))
	case !(cfg.High >= cfg.Low):
		panic("governor: Config.High must be >= Low (" + exact(cfg.Low) + "), got " + exact(cfg.High))
	case math.IsNaN(cfg.Start):
		panic("governor: Config.Start must be a number, got NaN")
	}
	start := cfg.Start
	if start == 0 {
		start = cfg.Floor
	}
	return &Governor{cfg: cfg, offer: min(max(start, cfg.Floor), cfg.Ceiling)}
}

// Observe closes one window, given the cumulative failed and resolved
// attempt counts at this tick, and returns its decision. The offer and the
// memory it reports are committed: Offer and LastBad return them until the
// next call.
//
// The window is the difference from the previous tick's counters (0 before
// the first tick), never the lifetime ratio: after an hour of clean traffic
// one bad minute must still read as bad. A window with no resolved attempts
// holds, as does one where either counter went backwards (the counters were
// reset: they become the new baseline). Both are windows without evidence:
// they reset the memory-clear streak, and their Decision is a Hold carrying
// the current offer and memory.
//
// Otherwise Observe calls Decide with frac = failures/resolved of the
// window, and feeds MemoryClearStep with whether the window was clean, with
// a memory, at a committed offer at or above it; when the streak completes,
// the memory (and the Decision's LastBad) becomes 0 and the Reason says so.
func (g *Governor) Observe(cumFailures, cumResolved uint64) Decision {
	if cumFailures < g.failures || cumResolved < g.resolved {
		g.failures, g.resolved = cumFailures, cumResolved
		g.streak = 0
		return g.hold("counters went backwards (" + strconv.FormatUint(cumFailures, 10) + "/" + strconv.FormatUint(cumResolved, 10) + "): reset, new baseline; hold at " + num(g.offer))
	}
	failed, resolved := cumFailures-g.failures, cumResolved-g.resolved
	g.failures, g.resolved = cumFailures, cumResolved
	if resolved == 0 {
		g.streak = 0
		return g.hold("no resolved attempts in this window: hold at " + num(g.offer))
	}

	frac := float64(failed) / float64(resolved)
	d := Decide(g.cfg, frac, g.offer, g.lastBad)
	evidence := frac <= g.cfg.Low && g.lastBad > 0 && g.offer >= g.lastBad
	var clears bool
	g.streak, clears = MemoryClearStep(g.streak, evidence)
	if clears {
		d.LastBad = 0
		d.Reason += "; " + strconv.Itoa(MemoryClearStreak) + " clean windows at or above last bad " + num(g.lastBad) + ": memory cleared"
	}
	g.offer, g.lastBad = d.Offer, d.LastBad
	return d
}

func (g *Governor) hold(why string) Decision {
	return Decision{Action: Hold, Offer: g.offer, LastBad: g.lastBad, Reason: why}
}

// Offer returns the committed offer: the opening offer before the first
// Observe, then the Offer of the latest Decision.
func (g *Governor) Offer() float64 { return g.offer }

// LastBad returns the congestion memory, the offer at which failure was
// last observed, or 0 if there is none (never congested, or cleared).
func (g *Governor) LastBad() float64 { return g.lastBad }

// num formats a fraction or an offer for a Reason: at most two decimals,
// no trailing zeros ("0.31", "69", "34.5").
func num(x float64) string {
	return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
}

// exact formats a value of a panic's message whole, as %v would. The
// package formats with strconv, not fmt: the lab's WebAssembly builds
// link it (see ratelab/wasm).
func exact(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
