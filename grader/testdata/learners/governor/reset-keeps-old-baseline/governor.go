package governor

// Governor is an adaptive backpressure governor.
type Governor struct {
	cfg     Config
	base    [2]uint64 // failures, resolved at the previous tick
	last    Decision  // the committed decision
	evident int       // clean windows in a row at or above LastBad
}

// New returns a governor at its opening offer.
func New(cfg Config) *Governor {
	o := cfg.Start
	if o == 0 {
		o = cfg.Floor
	}
	if o > cfg.Ceiling {
		o = cfg.Ceiling
	}
	if o < cfg.Floor {
		o = cfg.Floor
	}
	return &Governor{cfg: cfg, last: Decision{Action: Hold, Offer: o}}
}

// Observe closes one window and commits its decision.
func (g *Governor) Observe(cumFailures, cumResolved uint64) Decision {
	now := [2]uint64{cumFailures, cumResolved}
	prev := g.base
	var d Decision
	switch {
	case now[0] < prev[0] || now[1] < prev[1]:
		d = Decision{Hold, g.last.Offer, g.last.LastBad, "counters went back: new baseline, hold"}
		g.evident = 0
	case now[1] == prev[1]:
		d = Decision{Hold, g.last.Offer, g.last.LastBad, "empty window: hold"}
		g.evident = 0
	default:
		g.base = now
		frac := float64(now[0]-prev[0]) / float64(now[1]-prev[1])
		cur, lb := g.last.Offer, g.last.LastBad
		d = Decide(g.cfg, frac, cur, lb)
		var clear bool
		g.evident, clear = MemoryClearStep(g.evident, frac <= g.cfg.Low && lb > 0 && cur >= lb)
		if clear {
			d.LastBad = 0
		}
	}
	g.last = d
	return d
}

// Offer returns the committed offer.
func (g *Governor) Offer() float64 { return g.last.Offer }

// LastBad returns the congestion memory, or 0 if there is none.
func (g *Governor) LastBad() float64 { return g.last.LastBad }
