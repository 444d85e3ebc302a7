package governor

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
