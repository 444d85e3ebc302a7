package throttle

import "errors"

// State is the circuit breaker's state, set by the operator.
type State uint8

// The breaker's states.
const (
	Normal State = iota
	Degraded
	Paused
)

// Level is the load congestion throttling last saw.
type Level uint8

// The load levels.
const (
	Low Level = iota
	NormalLoad
	High
)

// The errors Write returns.
var (
	ErrPaused        = errors.New("throttle: paused")
	ErrDegradedLimit = errors.New("throttle: degraded write limit reached")
	ErrRateLimited   = errors.New("throttle: rate limited")
)

// BreakerConfig configures the operator's circuit breaker.
type BreakerConfig struct {
	TTLNs              uint64
	DegradedWriteLimit uint32
	AutoRecover        bool
}

// RateLimit is a sliding-window limit.
type RateLimit struct {
	MaxCalls uint32
	WindowNs uint64
}

// CongestionConfig configures congestion throttling.
type CongestionConfig struct {
	WindowNs                 uint64
	LowBelow, HighAbove      uint32
	ReduceBps, IncreaseBps   uint32
	MinMaxCalls, MaxMaxCalls uint32
}

// Config is a gate's whole configuration.
type Config struct {
	Breaker    BreakerConfig
	Rate       RateLimit
	Congestion CongestionConfig
}

// Status is the whole throttling picture at one instant.
type Status struct {
	State                              State
	RecoverAtNs                        uint64
	DegradedWriteLimit, DegradedWrites uint32
	MaxCalls                           uint32
	WindowNs                           uint64
	Level                              Level
	Congestion                         CongestionConfig
}

func (c Config) validate() error {
	switch {
	case c.Rate.MaxCalls == 0:
		return errors.New("Rate.MaxCalls must be at least 1")
	case c.Rate.WindowNs == 0:
		return errors.New("Rate.WindowNs must be at least 1")
	case c.Congestion.WindowNs == 0:
		return errors.New("Congestion.WindowNs must be at least 1")
	case c.Congestion.ReduceBps > 10000:
		return errors.New("Congestion.ReduceBps must be at most 10000")
	case c.Congestion.MinMaxCalls == 0:
		return errors.New("Congestion.MinMaxCalls must be at least 1")
	case c.Congestion.MinMaxCalls > c.Congestion.MaxMaxCalls:
		return errors.New("Congestion.MinMaxCalls must not exceed Congestion.MaxMaxCalls")
	case c.Congestion.LowBelow > c.Congestion.HighAbove:
		return errors.New("Congestion.LowBelow must not exceed Congestion.HighAbove")
	case c.Breaker.AutoRecover && c.Breaker.TTLNs == 0:
		return errors.New("Breaker.TTLNs must be at least 1 with AutoRecover")
	}
	return nil
}
