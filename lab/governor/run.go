package governor

import (
	"errors"
	"math"
	"strconv"

	"ratelab/lab/adaptive"
	"ratelab/lab/guard"
	"ratelab/lab/retry"
	"ratelab/lab/target"
)

// Timing of a run, in virtual nanoseconds.
const (
	WindowNs        = 1_000_000_000 // one drain-loop tick
	RoundsPerWindow = 10            // rounds of concurrent attempts per window
	RoundNs         = WindowNs / RoundsPerWindow
)

// Limits on a Config.
const (
	MaxCeiling = 2000 // most concurrent attempts per round
	MaxTries   = 10
)

// Config is one run of the governor lab.
type Config struct {
	Target string // a profile name from target.Names

	// The governor's configuration, as in the exercise: the offer stays in
	// [Floor, Ceiling] and opens at Start (0: Floor); a window is clean at
	// an attempt-failure fraction at or below Low, a breach above High.
	Floor, Ceiling, Start float64
	Low, High             float64

	Tries int    // attempts per request, the tries wrapper's setting
	Fixed bool   // no governor: offer the ceiling in every window
	Seed  uint64 // of the target's noise and the client's draws
}

// DefaultConfig returns the lab's settings against the named target: offers
// between 10 and 200 concurrent attempts starting at the floor, clean at
// or below 1% attempt failures, a breach above 5%, three tries per
// request, seed 1.
func DefaultConfig(targetName string) Config {
	return Config{Target: targetName, Floor: 10, Ceiling: 200, Low: 0.01, High: 0.05, Tries: 3, Seed: 1}
}

// Validate reports why c cannot be run, or nil if it can.
func (c Config) Validate() error {
	switch {
	case !(c.Floor >= 1):
		return errors.New("governor: floor must be at least 1")
	case !(c.Ceiling >= c.Floor && c.Ceiling <= MaxCeiling):
		return errors.New("governor: ceiling must be between the floor and " + strconv.Itoa(MaxCeiling))
	case math.IsNaN(c.Start) || c.Start < 0:
		return errors.New("governor: start must be 0 or more")
	case !(c.Low >= 0 && c.High >= c.Low && c.High < 1):
		return errors.New("governor: need 0 <= low <= high < 1")
	case c.Tries < 1 || c.Tries > MaxTries:
		return errors.New("governor: tries must be between 1 and " + strconv.Itoa(MaxTries))
	}
	_, err := target.Named(c.Target)
	return err
}

// Window is one window of a run.
type Window struct {
	Index   int    // 0 for the first
	StartNs uint64 // Index·WindowNs

	Offer    float64 // the committed offer during the window
	Slots    int     // concurrent attempts per round: Offer rounded down, at least 1
	Capacity float64 // the target's nominal capacity at the window's middle

	Counts retry.Counters // the window's counts, both planes

	// Decision is the governor's at the end of the window: its Offer is the
	// next window's. Without a governor, or after the governor stopped, it
	// is a Hold.
	Decision adaptive.Decision
}

// Moved reports whether the window's decision moved the offer or the
// congestion memory: whether it is a line of the movement log.
func (w Window) Moved() bool { return w.Decision.Action != adaptive.Hold }

// AttemptFailure returns the window's attempt-failure fraction, the
// governor's signal.
func (w Window) AttemptFailure() float64 { return w.Counts.AttemptFailure() }

// OK returns the window's request success fraction, the dashboard's figure.
func (w Window) OK() float64 { return w.Counts.OK() }

// Run is the drain loop of one run. It is not safe for concurrent use.
type Run struct {
	cfg     Config
	side    guard.Side // the governor's: Impl's name, and whether and why it stopped the run
	profile target.Profile
	tgt     *target.Target
	client  *retry.Client
	gov     adaptive.Governor
	offer   float64
	lastBad float64
	window  int
	seen    retry.Counters // the client's counters at the end of the previous window
	out     []Window
}

// New returns a run of cfg at window 0, its governor built by impl. A
// constructor that is nil or panics leaves the run stopped before its first
// window, with the reason in Status; New fails only when cfg is invalid.
func New(cfg Config, impl adaptive.Impl) (*Run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p, _ := target.Named(cfg.Target)
	r := &Run{
		cfg:     cfg,
		side:    guard.Side{Name: impl.Name},
		profile: p,
		tgt:     target.New(p, cfg.Seed),
		client:  retry.New(cfg.Tries, cfg.Seed+1),
	}
	if cfg.Fixed {
		r.offer = cfg.Ceiling
		return r, nil
	}
	if impl.NewGovernor == nil {
		r.side.Stop(guard.Missing(impl.Missing))
		return r, nil
	}
	r.side.Guard(func() {
		r.gov = impl.NewGovernor(adaptive.GovernorConfig{Floor: cfg.Floor, Ceiling: cfg.Ceiling, Start: cfg.Start, Low: cfg.Low, High: cfg.High})
		if r.gov == nil {
			panic(errors.New("New returned nil"))
		}
		r.offer = r.gov.Offer()
	})
	return r, nil
}

// Config returns the configuration the run was made with.
func (r *Run) Config() Config { return r.cfg }

// Profile returns the target's profile.
func (r *Run) Profile() target.Profile { return r.profile }

// Impl returns the name of the Impl the run was made with.
func (r *Run) Impl() string { return r.side.Name }

// Windows returns the number of windows run so far.
func (r *Run) Windows() int { return r.window }

// Offer returns the committed offer: the one the next window will use.
func (r *Run) Offer() float64 { return r.offer }

// LastBad returns the congestion memory after the latest window, 0 for
// none.
func (r *Run) LastBad() float64 { return r.lastBad }

// Capacity returns the target's nominal capacity at the middle of the next
// window.
func (r *Run) Capacity() float64 { return r.profile.CapacityAt(r.startNs() + WindowNs/2) }

// Counters returns the client's cumulative counts.
func (r *Run) Counters() retry.Counters { return r.client.Counters() }

// Stopped reports whether the governor stopped the run; Status says why.
func (r *Run) Stopped() bool { return r.side.Stopped }

// Status says why the run stopped, or is empty while it runs.
func (r *Run) Status() string { return r.side.Status }

// ImplStatus sums the run up in one line: the Impl's name while it runs
// ("Reference"), the name and why once it stopped ("Yours: not
// implemented yet"), and "No governor" for a Fixed run.
func (r *Run) ImplStatus() string {
	if r.cfg.Fixed {
		return "No governor"
	}
	return r.side.ImplStatus()
}

func (r *Run) startNs() uint64 { return uint64(r.window) * WindowNs }

// slots returns the concurrent attempts an offer sends per round: the
// offer rounded down, at least 1 and at most MaxCeiling, whatever a
// learner's governor returns.
func slots(offer float64) int {
	switch {
	case !(offer >= 1):
		return 1
	case offer >= MaxCeiling:
		return MaxCeiling
	}
	return int(offer)
}

// Step runs up to maxWindows windows and returns them; fewer if the run
// stops. The slice belongs to the Run and is valid until the next Step.
func (r *Run) Step(maxWindows int) []Window {
	out := r.out[:0]
	for range maxWindows {
		if r.side.Stopped {
			break
		}
		out = append(out, r.one())
	}
	r.out = out
	return out
}

// one runs the next window.
func (r *Run) one() Window {
	start := r.startNs()
	w := Window{
		Index:    r.window,
		StartNs:  start,
		Offer:    r.offer,
		Slots:    slots(r.offer),
		Capacity: r.profile.CapacityAt(start + WindowNs/2),
	}
	for i := range uint64(RoundsPerWindow) {
		now := start + i*RoundNs
		r.client.Round(w.Slots, r.tgt.Failures(now, w.Slots))
	}
	total := r.client.Counters()
	w.Counts = total.Sub(r.seen)
	r.seen = total
	r.window++

	w.Decision = adaptive.Decision{Action: adaptive.Hold, Offer: r.offer, LastBad: r.lastBad}
	if r.cfg.Fixed {
		w.Decision.Reason = "no governor: offer fixed at the ceiling " + strconv.FormatFloat(r.cfg.Ceiling, 'g', -1, 64)
	} else {
		r.side.Guard(func() { w.Decision = r.gov.Observe(total.AttemptFailures, total.Attempts) })
		if r.side.Stopped { // Observe panicked: w.Decision is still the hold
			w.Decision.Reason = "governor stopped: " + r.side.Status
		}
	}
	r.offer, r.lastBad = w.Decision.Offer, w.Decision.LastBad
	return w
}
