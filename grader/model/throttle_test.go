package model

import (
	"math"
	"testing"
)

// gateState and gateLevel are a gate's state and level types of a test's
// own, as the suite and the lab have theirs.
type (
	gateState uint8
	gateLevel uint8
)

const (
	gNormal gateState = iota
	gDegraded
	gPaused
)

const (
	gLow gateLevel = iota
	gNormalLoad
	gHigh
)

func throttleConfig() ThrottleConfig {
	return ThrottleConfig{
		Breaker:    ThrottleBreakerConfig{TTLNs: 100, DegradedWriteLimit: 1, AutoRecover: true},
		Rate:       ThrottleRate{MaxCalls: 2, WindowNs: 10},
		Congestion: ThrottleCongestion{WindowNs: 50, LowBelow: 1, HighAbove: 2, ReduceBps: 5_000, IncreaseBps: 10_000, MinMaxCalls: 1, MaxMaxCalls: 3},
	}
}

// TestThrottleRules walks the gate through each rule of the contract: the
// rate window (now-WindowNs, now], overrides and the whitelist, the
// breaker's periods and their automatic end at RecoverAtNs itself, the
// refusals' order, and congestion moving only the global MaxCalls, only
// on a change of level, clamped.
func TestThrottleRules(t *testing.T) {
	m := NewThrottle[gateState, gateLevel](throttleConfig(), 1000, "")
	expect := func(what string, got, want any) {
		t.Helper()
		if got != want {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
	expect("first write", m.Write(1, 1000), ThrottleAccepted)
	expect("second write", m.Write(1, 1005), ThrottleAccepted)
	expect("third within the window", m.Write(1, 1009), ThrottleByRateLimit)
	expect("another address has its own window", m.Write(2, 1009), ThrottleAccepted)
	expect("a write exactly WindowNs old has left", m.Write(1, 1010), ThrottleAccepted)
	expect("an earlier time counts as the latest", m.Write(1, 5), ThrottleByRateLimit)

	m.SetWhitelisted(1, true)
	expect("the whitelist skips the rate limit", m.Write(1, 1010), ThrottleAccepted)
	m.SetWhitelisted(1, false)
	expect("a 0 field is refused", m.SetIssuerLimit(3, ThrottleRate{MaxCalls: 0, WindowNs: 5}), true)
	expect("an override is set", m.SetIssuerLimit(1, ThrottleRate{MaxCalls: 5, WindowNs: 10}), false)
	expect("an override starts the window afresh", m.Write(1, 1010), ThrottleAccepted)

	m.SetState(gDegraded, 1020)
	expect("recovery at TTL", m.RecoverAt, uint64(1120))
	expect("the degraded cap lets DegradedWriteLimit through", m.Write(2, 1020), ThrottleAccepted)
	expect("then refuses", m.Write(2, 1021), ThrottleByDegradedLimit)
	m.SetWhitelisted(2, true)
	expect("whitelisted too", m.Write(2, 1021), ThrottleByDegradedLimit)
	m.SetState(gPaused, 1030)
	expect("a new period counts from 0", m.DegradedWrites, uint32(0))
	expect("the pause comes first", m.Write(2, 1031), ThrottleByPause)
	expect("the period ends at RecoverAtNs itself", m.Status(1130).State, gNormal)
	expect("and RecoverAtNs is 0 again", m.Status(1130).RecoverAtNs, uint64(0))

	m.SetState(gPaused, math.MaxUint64-1)
	expect("RecoverAtNs saturates", m.RecoverAt, uint64(math.MaxUint64))

	n := NewThrottle[gateState, gateLevel](throttleConfig(), 0, "")
	expect("no write: Low", n.AdjustCongestion(0), gLow)
	expect("up by IncreaseBps, clamped to MaxMaxCalls", n.Status(0).MaxCalls, uint32(3))
	expect("the same level again moves nothing", n.AdjustCongestion(0), gLow)
	for i := uint64(1); i <= 3; i++ {
		n.SetWhitelisted(i, true)
		n.Write(i, i)
	}
	expect("3 writes: High", n.AdjustCongestion(3), gHigh)
	expect("down by 3*50% rounded down: 3-1", n.Status(3).MaxCalls, uint32(2))
	expect("Status's level is AdjustCongestion's", n.Status(100).Level, gHigh)
	expect("the writes leave the window: Low", n.AdjustCongestion(100), gLow)
	expect("2 up by 100%, clamped", n.Status(100).MaxCalls, uint32(3))
}

// TestThrottleMistakeSwitches checks that a mistake's switch breaks its
// rule and nothing else: with limit-off-by-one the gate lets one more
// write into a full window, and answers as the contract elsewhere.
func TestThrottleMistakeSwitches(t *testing.T) {
	right := NewThrottle[gateState, gateLevel](throttleConfig(), 0, "")
	wrong := NewThrottle[gateState, gateLevel](throttleConfig(), 0, "limit-off-by-one")
	for i, want := range []ThrottleRefusal{ThrottleAccepted, ThrottleAccepted, ThrottleByRateLimit} {
		if got := right.Write(1, uint64(i)); got != want {
			t.Fatalf("contract, write %d: got %v, want %v", i, got, want)
		}
	}
	for i, want := range []ThrottleRefusal{ThrottleAccepted, ThrottleAccepted, ThrottleAccepted, ThrottleByRateLimit} {
		if got := wrong.Write(1, uint64(i)); got != want {
			t.Fatalf("limit-off-by-one, write %d: got %v, want %v", i, got, want)
		}
	}
	if right.Status(5) != (ThrottleStatus[gateState, gateLevel]{
		MaxCalls: 2, WindowNs: 10, Level: gNormalLoad, DegradedWriteLimit: 1, Congestion: right.Cfg.Congestion,
	}) {
		t.Fatalf("status of a fresh Normal gate: %+v", right.Status(5))
	}
}
