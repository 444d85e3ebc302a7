package governor

// MemoryClearStreak is the number of consecutive clean windows at or above
// the remembered congestion point after which the memory clears.
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
// the unit of the offer; Low and High are attempt-failure fractions.
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
	Reason  string  // one line naming the signal and the move, e.g. "frac 0.31 > high 0.05: back off x0.69 to 69"
}

// Decide applies one window's attempt-failure fraction frac to the committed
// offer current, given the congestion memory lastBad (0: none). It must be
// pure: no state, same answer for the same arguments.
func Decide(cfg Config, frac, current, lastBad float64) Decision {
	panic("governor: Decide is not implemented yet")
}

// MemoryClearStep folds one window's evidence (clean, at or above the
// remembered congestion point) into the running streak and reports the
// next streak and whether the memory clears on this window. It must be
// pure.
func MemoryClearStep(streak int, cleanAtOrAboveLastBad bool) (next int, clears bool) {
	panic("governor: MemoryClearStep is not implemented yet")
}

// Governor is your governor. Its fields are yours to choose: what must it
// remember from one tick to the next to compute a window, and to know
// whether a streak is running?
type Governor struct {
	// Your fields here.
}

// New returns a governor with the opening offer cfg.Start (cfg.Floor if
// Start is 0) clamped into [Floor, Ceiling], no congestion memory, and
// counter baselines of 0.
func New(cfg Config) *Governor {
	panic("governor: New is not implemented yet")
}

// Observe closes one window, given the cumulative failed and resolved
// attempt counts at this tick, and returns (and commits) its decision.
func (g *Governor) Observe(cumFailures, cumResolved uint64) Decision {
	panic("governor: Observe is not implemented yet")
}

// Offer returns the committed offer.
func (g *Governor) Offer() float64 {
	panic("governor: Offer is not implemented yet")
}

// LastBad returns the congestion memory, or 0 if there is none.
func (g *Governor) LastBad() float64 {
	panic("governor: LastBad is not implemented yet")
}
