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
