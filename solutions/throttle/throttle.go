package throttle

import (
	"errors"
	"strconv"
)

// State is the circuit breaker's state, set by the operator.
type State uint8

// The breaker's states. A State other than these is not legal input.
const (
	Normal   State = iota // writes go on to the rate limit
	Degraded              // at most DegradedWriteLimit writes per degraded period
	Paused                // every write is refused
)

// Level is the load congestion throttling last saw.
type Level uint8

// The load levels.
const (
	Low Level = iota
	NormalLoad
	High
)

// The errors Write returns, one per throttle that can refuse; compare with
// errors.Is.
var (
	ErrPaused        = errors.New("throttle: paused by the operator")
	ErrDegradedLimit = errors.New("throttle: degraded, and this period's writes are used up")
	ErrRateLimited   = errors.New("throttle: rate limit exceeded for this address")
)

// BreakerConfig configures the operator's circuit breaker.
type BreakerConfig struct {
	TTLNs              uint64 // how long Degraded or Paused lasts once set, if AutoRecover
	DegradedWriteLimit uint32 // writes allowed per degraded period
	AutoRecover        bool
}

// RateLimit is a sliding-window limit: at most MaxCalls accepted writes
// in any window (now-WindowNs, now]. Both fields are at least 1.
type RateLimit struct {
	MaxCalls uint32
	WindowNs uint64
}

// CongestionConfig configures congestion throttling.
type CongestionConfig struct {
	WindowNs                 uint64 // accepted writes counted over (now-WindowNs, now]
	LowBelow, HighAbove      uint32 // writes < LowBelow: Low; writes > HighAbove: High; else NormalLoad
	ReduceBps, IncreaseBps   uint32 // on a change to High: max -= max*ReduceBps/10000; to Low: max += max*IncreaseBps/10000
	MinMaxCalls, MaxMaxCalls uint32 // the global MaxCalls is clamped into [MinMaxCalls, MaxMaxCalls] after each change
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
	RecoverAtNs                        uint64 // 0: no automatic recovery pending
	DegradedWriteLimit, DegradedWrites uint32
	MaxCalls                           uint32 // the global limit, as congestion last set it
	WindowNs                           uint64
	Level                              Level
	Congestion                         CongestionConfig
}

// validate returns nil, or an error naming every problem of cfg by its
// field's dotted path.
func (cfg Config) validate() error {
	var errs []error
	bad := func(field, why string) { errs = append(errs, errors.New(field+": "+why)) }
	u := func(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
	if cfg.Breaker.AutoRecover && cfg.Breaker.TTLNs == 0 {
		bad("Breaker.TTLNs", "0 with AutoRecover: a period would end as soon as it starts (at least 1)")
	}
	if cfg.Rate.MaxCalls == 0 {
		bad("Rate.MaxCalls", "0 would refuse every write (at least 1)")
	}
	if cfg.Rate.WindowNs == 0 {
		bad("Rate.WindowNs", "0 is an empty window (at least 1)")
	}
	c := cfg.Congestion
	if c.WindowNs == 0 {
		bad("Congestion.WindowNs", "0 is an empty window (at least 1)")
	}
	if c.LowBelow > c.HighAbove {
		bad("Congestion.LowBelow", u(c.LowBelow)+" is above Congestion.HighAbove "+u(c.HighAbove))
	}
	if c.ReduceBps > 10_000 {
		bad("Congestion.ReduceBps", u(c.ReduceBps)+" basis points would take more than the whole limit (at most 10000)")
	}
	if c.MinMaxCalls == 0 {
		bad("Congestion.MinMaxCalls", "0 would let congestion refuse every write (at least 1)")
	}
	if c.MinMaxCalls > c.MaxMaxCalls {
		bad("Congestion.MinMaxCalls", u(c.MinMaxCalls)+" is above Congestion.MaxMaxCalls "+u(c.MaxMaxCalls))
	}
	return errors.Join(errs...)
}
