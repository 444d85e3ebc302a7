package governor

import (
	"math"

	"ratelab/grader/check"
)

// mistakes are those learners make with a governor (see check.Mistake).
var mistakes = check.Mistakes(mistaken, []check.Mistake[Impl]{
	// slow-start: opens at Start (Floor if Start is 0), doubles while
	// there is no memory.
	{Name: "opens-at-ceiling", Pitfall: "slow-start", Says: "opens at Ceiling when Start is 0, instead of at Floor"},
	{Name: "ignores-start", Pitfall: "slow-start", Says: "always opens at Floor, whatever Start is"},
	{Name: "grows-by-half", Pitfall: "slow-start", Says: "climbs x1.5 after a clean window while it has no congestion memory, instead of doubling"},
	// back-off: Offer = max(Floor, current*clamp(1-frac, 0.25, 0.9)),
	// LastBad = current.
	{Name: "halves-on-breach", Pitfall: "back-off", Says: "halves the offer on every breach, whatever the failure fraction"},
	{Name: "unclamped-severity", Pitfall: "back-off", Says: "multiplies the offer by 1-frac on a breach without clamping that factor into [0.25, 0.9]"},
	{Name: "multiplies-by-frac", Pitfall: "back-off", Says: "multiplies the offer by frac clamped into [0.25, 0.9] on a breach, instead of by 1-frac"},
	{Name: "remembers-new-offer", Pitfall: "back-off", Says: "remembers the backed-off offer as LastBad, instead of the offer that failed"},
	{Name: "remembers-unfloored-offer", Pitfall: "back-off", Says: "remembers current×factor, the backed-off offer before the floor lifts it, as LastBad, instead of the offer that failed"},
	{Name: "keeps-first-memory", Pitfall: "back-off", Says: "sets LastBad on a breach only when it has no memory yet, keeping an older one"},
	// dead-band: Low < frac <= High holds, nothing changed.
	{Name: "no-dead-band", Pitfall: "dead-band", Says: "reads every window at or below High as clean: it has no dead band"},
	{Name: "low-is-not-clean", Pitfall: "dead-band", Says: "reads frac == Low as the dead band, clean only below Low"},
	{Name: "high-is-breach", Pitfall: "dead-band", Says: "reads frac == High as a breach"},
	{Name: "hold-forgets-memory", Pitfall: "dead-band", Says: "returns LastBad 0 from a Hold in the dead band, forgetting the memory"},
	// congestion-memory: recover x1.5 to 75% of LastBad, then probe.
	{Name: "multiplicative-recovery", Pitfall: "congestion-memory", Says: "keeps climbing x1.5 with a congestion memory, up to the ceiling, never stopping at 75% of LastBad nor probing"},
	{Name: "doubles-with-memory", Pitfall: "congestion-memory", Says: "doubles after every clean window, memory or not"},
	{Name: "recovers-past-75", Pitfall: "congestion-memory", Says: "recovers x1.5 below 75% of LastBad without capping the recovery at 75% of LastBad"},
	{Name: "recovers-at-75", Pitfall: "congestion-memory", Says: "recovers while the offer is at or below 75% of LastBad, so that an offer right at 75% recovers (to itself) instead of probing"},
	{Name: "probes-by-one", Pitfall: "congestion-memory", Says: "probes by 1, not by max(1, 2% of LastBad)"},
	{Name: "probes-without-minimum", Pitfall: "congestion-memory", Says: "probes by 2% of LastBad, without the minimum step of 1"},
	{Name: "probes-by-offer", Pitfall: "congestion-memory", Says: "probes by max(1, 2% of the current offer), not of LastBad"},
	// memory-clear: MemoryClearStreak clean windows in a row at or above
	// LastBad (at the offer they ran at) clear it; any other window starts
	// the count again.
	{Name: "streak-not-reset", Pitfall: "memory-clear", Says: "keeps the streak through a decided window without evidence (a breach, a hold, a clean window below LastBad), instead of starting it again"},
	{Name: "streak-reset-only-by-breach", Pitfall: "memory-clear", Says: "starts the streak again only on a breach (a new LastBad), keeping it through every other window without evidence: a hold, a clean window below LastBad, an empty window, a reset"},
	{Name: "clears-one-early", Pitfall: "memory-clear", Says: "clears the memory on the 2nd window of evidence in a row, not the 3rd"},
	{Name: "clears-one-late", Pitfall: "memory-clear", Says: "clears the memory on the 4th window of evidence in a row, not the 3rd"},
	{Name: "evidence-at-new-offer", Pitfall: "memory-clear", Says: "takes a clean window as evidence when its new offer is at or above LastBad, instead of the offer the window ran at"},
	{Name: "only-clean-windows-count", Pitfall: "memory-clear", Says: "feeds MemoryClearStep on clean windows only, so that a breach, a hold or an empty window does not start the streak again"},
	{Name: "empty-keeps-streak", Pitfall: "memory-clear", Says: "keeps the streak through a window with no resolved attempts"},
	{Name: "reset-keeps-streak", Pitfall: "memory-clear", Says: "keeps the streak through a counter reset"},
	{Name: "holds-keep-streak", Pitfall: "memory-clear", Says: "keeps the streak through a window with no resolved attempts and through a counter reset"},
	{Name: "evidence-not-clean", Pitfall: "memory-clear", Says: "takes any window at or above LastBad as evidence, clean or not"},
	{Name: "clear-not-returned", Pitfall: "memory-clear", Says: "clears the memory it keeps but returns the window's decision with the old LastBad"},
	// floor-ceiling: the offer never leaves [Floor, Ceiling].
	{Name: "no-floor", Pitfall: "floor-ceiling", Says: "backs off without stopping at the floor"},
	{Name: "doubles-past-ceiling", Pitfall: "floor-ceiling", Says: "doubles without stopping at the ceiling"},
	{Name: "probes-past-ceiling", Pitfall: "floor-ceiling", Says: "probes without stopping at the ceiling"},
	{Name: "start-not-clamped", Pitfall: "floor-ceiling", Says: "opens at Start as it is, without clamping it into [Floor, Ceiling]"},
	// windowing: the window is the deltas since the previous tick; no
	// resolved attempts, or a counter that went back, holds.
	{Name: "lifetime-ratio", Pitfall: "windowing", Says: "reads each window's frac from the lifetime counters, cumFailures/cumResolved, not from the deltas since the previous tick (holding only while cumResolved is 0, and never seeing a reset)"},
	{Name: "wrapping-deltas", Pitfall: "windowing", Says: "never looks for a reset: a counter that went back wraps its uint64 delta around to a huge window"},
	{Name: "reset-by-resolved-only", Pitfall: "windowing", Says: "sees a reset only when cumResolved went back, so that cumFailures going back alone wraps its uint64 delta"},
	{Name: "reset-zeroes-baseline", Pitfall: "windowing", Says: "takes 0, not the counters it was given, as the baseline after a reset, so that the next window counts the attempts already there"},
	{Name: "reset-keeps-old-baseline", Pitfall: "windowing", Says: "holds on a reset but keeps the old counters as the baseline, so that it holds until the counters pass them again"},
	{Name: "empty-window-divides", Pitfall: "windowing", Says: "divides by a window with no resolved attempts: 0/0 is NaN, which no comparison with High or Low catches, so the window reads as clean (and any failures over 0 as a total breach)"},
	{Name: "empty-window-clean", Pitfall: "windowing", Says: "reads a window with no resolved attempts as clean, frac 0"},
	{Name: "empty-keeps-baseline", Pitfall: "windowing", Says: "holds on a window with no resolved attempts without taking its counters as the new baseline, so that its failures count in the next window"},
	// exactness: the rest of the contract.
	{Name: "stale-offer", Pitfall: check.Exactness, Says: "decides right but whose Offer() returns the opening offer, not the committed one"},
	{Name: "integer-frac", Pitfall: check.Exactness, Says: "computes frac = failed/resolved in integer division, so that any window with fewer failures than resolved attempts reads as frac 0"},
})

// mistaken returns the Impl of the contract's governor with the named
// mistake: Decide, MemoryClearStep and Governor all make it where it
// belongs.
func mistaken(mistake string) Impl {
	f := flaw(mistake)
	return Impl{
		Decide:          f.decide,
		MemoryClearStep: f.memoryClearStep,
		New:             func(cfg Config) Governor { return f.newGovernor(cfg) },
	}
}

// flaw is the mistake a flawed governor makes.
type flaw string

// decide is the contract's Decide with the mistake. Its switch reads the
// regions in the stub's order (breach, dead band, clean), as learners
// write it: a NaN frac is then neither a breach nor in the dead band.
func (f flaw) decide(cfg Config, frac, current, lastBad float64) Decision {
	breach := frac > cfg.High
	band := frac > cfg.Low
	switch f {
	case "high-is-breach":
		breach = frac >= cfg.High
	case "no-dead-band":
		band = false
	case "low-is-not-clean":
		band = frac >= cfg.Low
	}
	switch {
	case breach:
		factor := math.Min(math.Max(1-frac, 0.25), 0.9)
		switch f {
		case "halves-on-breach":
			factor = 0.5
		case "unclamped-severity":
			factor = 1 - frac
		case "multiplies-by-frac":
			factor = math.Min(math.Max(frac, 0.25), 0.9)
		}
		offer, unfloored := current*factor, current*factor
		if f != "no-floor" {
			offer = math.Max(cfg.Floor, offer)
		}
		remembered := current
		switch {
		case f == "remembers-new-offer":
			remembered = offer
		case f == "remembers-unfloored-offer":
			remembered = unfloored
		case f == "keeps-first-memory" && lastBad != 0:
			remembered = lastBad
		}
		return Decision{Action: BackOff, Offer: offer, LastBad: remembered}

	case band:
		if f == "hold-forgets-memory" {
			return Decision{Action: Hold, Offer: current}
		}
		return Decision{Action: Hold, Offer: current, LastBad: lastBad}

	case lastBad == 0 || f == "doubles-with-memory":
		factor := 2.0
		if f == "grows-by-half" {
			factor = 1.5
		}
		offer := factor * current
		if f != "doubles-past-ceiling" {
			offer = math.Min(cfg.Ceiling, offer)
		}
		return Decision{Action: Double, Offer: offer, LastBad: lastBad}

	case f == "multiplicative-recovery":
		return Decision{Action: Recover, Offer: math.Min(cfg.Ceiling, 1.5*current), LastBad: lastBad}

	case current < 0.75*lastBad || f == "recovers-at-75" && current == 0.75*lastBad:
		offer := math.Min(1.5*current, 0.75*lastBad)
		if f == "recovers-past-75" {
			offer = 1.5 * current
		}
		return Decision{Action: Recover, Offer: offer, LastBad: lastBad}

	default:
		step := math.Max(1, 0.02*lastBad)
		switch f {
		case "probes-by-one":
			step = 1
		case "probes-without-minimum":
			step = 0.02 * lastBad
		case "probes-by-offer":
			step = math.Max(1, 0.02*current)
		}
		offer := current + step
		if f != "probes-past-ceiling" {
			offer = math.Min(cfg.Ceiling, offer)
		}
		return Decision{Action: Probe, Offer: offer, LastBad: lastBad}
	}
}

// memoryClearStep is the contract's MemoryClearStep with the mistake.
func (f flaw) memoryClearStep(streak int, evidence bool) (int, bool) {
	if !evidence {
		if f == "streak-not-reset" || f == "streak-reset-only-by-breach" {
			return streak, false
		}
		return 0, false
	}
	streak++
	needed := MemoryClearStreak
	switch f {
	case "clears-one-early":
		needed--
	case "clears-one-late":
		needed++
	}
	if streak >= needed {
		return 0, true
	}
	return streak, false
}

// governor is the contract's Governor with the mistake.
type governor struct {
	f                  flaw
	cfg                Config
	opening            float64
	offer, lastBad     float64
	streak             int
	failures, resolved uint64
}

func (f flaw) newGovernor(cfg Config) *governor {
	start := cfg.Start
	switch {
	case f == "ignores-start":
		start = cfg.Floor
	case start == 0 && f == "opens-at-ceiling":
		start = cfg.Ceiling
	case start == 0:
		start = cfg.Floor
	}
	if f != "start-not-clamped" {
		start = math.Min(math.Max(start, cfg.Floor), cfg.Ceiling)
	}
	return &governor{f: f, cfg: cfg, opening: start, offer: start}
}

// hold is the decision of a window without evidence: an empty one, or a
// reset if reset.
func (g *governor) hold(reset bool) Decision {
	switch {
	case g.f == "holds-keep-streak", g.f == "streak-reset-only-by-breach":
	case g.f == "empty-keeps-streak" && !reset:
	case g.f == "reset-keeps-streak" && reset:
	default:
		g.streak = 0
	}
	return Decision{Action: Hold, Offer: g.offer, LastBad: g.lastBad}
}

func (g *governor) Observe(cumFailures, cumResolved uint64) Decision {
	f := g.f
	if f == "lifetime-ratio" {
		if cumResolved == 0 {
			return g.hold(false)
		}
		return g.decide(float64(cumFailures) / float64(cumResolved))
	}
	wentBack := cumFailures < g.failures || cumResolved < g.resolved
	switch f {
	case "wrapping-deltas":
		wentBack = false
	case "reset-by-resolved-only":
		wentBack = cumResolved < g.resolved
	}
	if wentBack {
		switch f {
		case "reset-zeroes-baseline":
			g.failures, g.resolved = 0, 0
		case "reset-keeps-old-baseline":
		default:
			g.failures, g.resolved = cumFailures, cumResolved
		}
		return g.hold(true)
	}
	failed, resolved := cumFailures-g.failures, cumResolved-g.resolved // wraps where the mistake lets it
	if resolved == 0 && f == "empty-keeps-baseline" {
		return g.hold(false)
	}
	g.failures, g.resolved = cumFailures, cumResolved
	var frac float64
	switch {
	case f == "integer-frac" && resolved != 0:
		frac = float64(failed / resolved)
	case resolved != 0, f == "empty-window-divides":
		frac = float64(failed) / float64(resolved)
	case f == "empty-window-clean":
		frac = 0
	default:
		return g.hold(false)
	}
	return g.decide(frac)
}

// decide decides a window of the fraction frac and folds it into the
// memory's streak.
func (g *governor) decide(frac float64) Decision {
	f := g.f
	d := f.decide(g.cfg, frac, g.offer, g.lastBad)
	clean := frac <= g.cfg.Low
	at := g.offer
	switch f {
	case "evidence-not-clean":
		clean = true
	case "evidence-at-new-offer":
		at = d.Offer
	}
	evidence := clean && g.lastBad > 0 && at >= g.lastBad
	var clears bool
	if f != "only-clean-windows-count" || frac <= g.cfg.Low {
		g.streak, clears = f.memoryClearStep(g.streak, evidence)
	}
	if f == "streak-reset-only-by-breach" && d.Action == BackOff {
		g.streak = 0
	}
	kept := d.LastBad
	if clears {
		kept = 0
		if f != "clear-not-returned" {
			d.LastBad = 0
		}
	}
	g.offer, g.lastBad = d.Offer, kept
	return d
}

func (g *governor) Offer() float64 {
	if g.f == "stale-offer" {
		return g.opening
	}
	return g.offer
}

func (g *governor) LastBad() float64 { return g.lastBad }
