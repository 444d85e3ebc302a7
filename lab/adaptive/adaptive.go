package adaptive

import (
	"strconv"

	"ratelab/lab/contract"
	"ratelab/solutions/governor"
	"ratelab/solutions/gradient2"
)

// Action is what a governor decided for one window. The values are those of
// the exercise's Action.
type Action int

// The actions, as numbered by the governor exercise.
const (
	Hold    Action = iota // nothing moves
	Double                // clean, no congestion memory: slow start
	BackOff               // breach: severity-proportional back-off
	Recover               // clean, below 75% of the memory: x1.5
	Probe                 // clean, at or above 75% of it: additive step
)

var actionNames = []string{"hold", "double", "back off", "recover", "probe"}

// String returns the action in words, such as "back off", or "action 7"
// for a value outside the exercise's.
func (a Action) String() string {
	if a >= 0 && int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "action " + strconv.Itoa(int(a))
}

// Decision is what one window decided: the offer for the next window, the
// congestion memory (0 for none), and one line naming the signal and the
// move.
type Decision struct {
	Action  Action
	Offer   float64
	LastBad float64
	Reason  string
}

// GovernorConfig is the governor exercise's Config: the offer stays in
// [Floor, Ceiling], opens at Start (0: Floor), and a window's
// attempt-failure fraction is clean at or below Low and a breach above
// High.
//
// It is declared once, in the exercise's model (grader/model).
type GovernorConfig = contract.GovernorConfig

// Governor is the governor exercise's API, as a drain loop uses it.
type Governor interface {
	// Observe closes one window given the cumulative attempt counters.
	Observe(cumFailures, cumResolved uint64) Decision
	// Offer returns the committed offer.
	Offer() float64
}

// LimitConfig is the Gradient2 exercise's Config, without QueueSize: the
// lab always uses the default queue allowance of 4.
type LimitConfig struct {
	InitialLimit, MinLimit, MaxLimit float64
	Smoothing                        float64
	RTTTolerance                     float64
	LongWindow                       int
}

// DefaultLimitConfig returns Netflix's defaults, those of the exercise's
// DefaultConfig: 20, 20, 200, smoothing 0.2, tolerance 1.5, 600 samples.
func DefaultLimitConfig() LimitConfig {
	d := gradient2.DefaultConfig()
	return LimitConfig{
		InitialLimit: d.InitialLimit, MinLimit: d.MinLimit, MaxLimit: d.MaxLimit,
		Smoothing: d.Smoothing, RTTTolerance: d.RTTTolerance, LongWindow: d.LongWindow,
	}
}

// Limit is the Gradient2 exercise's API.
type Limit interface {
	// Update records one sample and returns the new limit.
	Update(rttNs uint64, inflight int) int
	// Limit returns the current limit.
	Limit() int
}

// Impl is one implementation of the two exercises. A nil constructor means
// that exercise is unavailable, and Missing says why.
type Impl struct {
	Name        string // shown to the learner: "Reference" or "Yours"
	NewGovernor func(GovernorConfig) Governor
	NewLimit    func(LimitConfig) Limit
	Missing     string // e.g. "your code does not build"
}

// Reference is the Impl built from the solutions packages.
var Reference = Impl{
	Name: "Reference",
	NewGovernor: func(c GovernorConfig) Governor {
		return refGovernor{governor.New(governor.Config(c))}
	},
	NewLimit: func(c LimitConfig) Limit {
		return gradient2.New(gradient2.Config{
			InitialLimit: c.InitialLimit, MinLimit: c.MinLimit, MaxLimit: c.MaxLimit,
			Smoothing: c.Smoothing, RTTTolerance: c.RTTTolerance, LongWindow: c.LongWindow,
		})
	},
}

// refGovernor converts the reference governor's Decision.
type refGovernor struct{ g *governor.Governor }

func (r refGovernor) Observe(cumFailures, cumResolved uint64) Decision {
	d := r.g.Observe(cumFailures, cumResolved)
	return Decision{Action: Action(d.Action), Offer: d.Offer, LastBad: d.LastBad, Reason: d.Reason}
}

func (r refGovernor) Offer() float64 { return r.g.Offer() }

var _ Limit = (*gradient2.Limit)(nil)
