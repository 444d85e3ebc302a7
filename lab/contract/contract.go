// Package contract declares the exercises' configuration types once,
// field for field as the exercises declare them (the stubs in exercises/
// and the references in solutions/ keep their own, which learners edit
// and read): the grader's suites and models (grader/model), the lab's
// simulations and the browser's replay all use these. Values travel
// between the grader and a learner's code by their exported fields (see
// grader/wire), so a field here must be the exercise's, in its order.
//
// It imports nothing, so that every build may link it: a week's
// WebAssembly (internal/weekbuild) links only what its simulations need.
package contract

// BreakerConfig is the breaker exercise's Config.
type BreakerConfig struct {
	FailureThreshold uint32 // consecutive failures, in Closed, that trip it open
	OpenNs           uint64 // how long it stays Open before letting probes through
	HalfOpenProbes   uint32 // calls let through in HalfOpen; that many successes close it
}

// GatewayBudget is one budget of a gateway's session class: Capacity
// tokens, refilled at RatePerSec; Capacity 0 is unlimited.
type GatewayBudget struct{ Capacity, RatePerSec uint64 }

// GatewayClass is a session class's budgets.
type GatewayClass struct{ Orders, Cancels GatewayBudget }

// GatewayConfig is the gateway exercise's Config.
type GatewayConfig struct {
	Classes           map[string]GatewayClass
	SilenceAfterNs    uint64
	DisconnectAfterNs uint64
}

// GovernorConfig is the governor exercise's Config: the offer stays in
// [Floor, Ceiling], opens at Start (0: Floor), and a window's
// attempt-failure fraction is clean at or below Low and a breach above
// High.
type GovernorConfig struct {
	Floor, Ceiling float64
	Start          float64
	Low, High      float64
}

// Gradient2Config is the gradient2 exercise's Config: QueueSize nil is a
// queue allowance of 4.
type Gradient2Config struct {
	InitialLimit, MinLimit, MaxLimit float64
	Smoothing                        float64
	RTTTolerance                     float64
	LongWindow                       int
	QueueSize                        func(limit int) float64
}

// ThrottleBreakerConfig, ThrottleRate, ThrottleCongestion and
// ThrottleConfig are the throttle exercise's BreakerConfig, RateLimit,
// CongestionConfig and Config.
type (
	ThrottleBreakerConfig struct {
		TTLNs              uint64
		DegradedWriteLimit uint32
		AutoRecover        bool
	}
	ThrottleRate struct {
		MaxCalls uint32
		WindowNs uint64
	}
	ThrottleCongestion struct {
		WindowNs                 uint64
		LowBelow, HighAbove      uint32
		ReduceBps, IncreaseBps   uint32
		MinMaxCalls, MaxMaxCalls uint32
	}
	ThrottleConfig struct {
		Breaker    ThrottleBreakerConfig
		Rate       ThrottleRate
		Congestion ThrottleCongestion
	}
)
