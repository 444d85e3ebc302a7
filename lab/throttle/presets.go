package throttle

import (
	"errors"
	"strconv"

	ref "ratelab/solutions/throttle"
)

const (
	ms = 1_000_000
	s  = 1_000 * ms
)

// The four callers every preset has, by index.
const (
	Regular     = 0 // under the global limit
	Whitelisted = 1 // an issuer on the whitelist
	OwnLimit    = 2 // an issuer with an override of its own
	Heavy       = 3 // under the global limit, sending more than it allows
)

// addresses returns the four callers with their traffic: every*, a phase
// list each.
func addresses(regular, white, own, heavy []Phase) []Address {
	return []Address{
		{Name: "regular", Addr: 0xA11CE, Phases: regular},
		{Name: "whitelisted issuer", Addr: 0xB0B, Whitelisted: true, Phases: white},
		{Name: "issuer with override", Addr: 0xCAFE, Override: RateLimit{MaxCalls: 12, WindowNs: 1 * s}, Phases: own},
		{Name: "heavy", Addr: 0xD00D, Phases: heavy},
	}
}

func steady(everyNs uint64) []Phase { return []Phase{{0, everyNs}} }

// baseConfig is what every preset shares: a global limit of 8 writes a
// second per address, congestion counted over 1 s (Low below 10 writes,
// High above 24), a cut of 25% on High and a rise of 25% on Low, the
// limit kept in [4, 12]; periods end by themselves after ttl, with a
// degraded cap of limit writes.
func baseConfig(ttl uint64, limit uint32) Config {
	return Config{
		Breaker: ref.BreakerConfig{TTLNs: ttl, DegradedWriteLimit: limit, AutoRecover: true},
		Rate:    RateLimit{MaxCalls: 8, WindowNs: 1 * s},
		Congestion: Congestion{
			WindowNs: 1 * s, LowBelow: 10, HighAbove: 24,
			ReduceBps: 2500, IncreaseBps: 2500, MinMaxCalls: 4, MaxMaxCalls: 12,
		},
	}
}

// Presets returns the console's scenarios, the first the default, each
// time afresh.
func Presets() []Scenario {
	return []Scenario{
		{
			// A busy day: the heavy address and the whitelisted issuer push
			// the load to High and the keeper cuts the global limit; the
			// operator pauses for 2 s (the keeper then sees a quiet second and
			// raises it), and later degrades until the TTL ends it.
			Name: "busy-day", Title: "A busy day: congestion, a pause, a degraded spell",
			Config: baseConfig(4*s, 20),
			Addresses: addresses(
				steady(200*ms),
				[]Phase{{0, 200 * ms}, {6 * s, 80 * ms}},
				steady(125*ms),
				[]Phase{{0, 250 * ms}, {3 * s, 60 * ms}},
			),
			KeeperEveryNs: 1 * s,
			Script:        []Action{{10 * s, ref.Paused}, {12 * s, ref.Normal}, {15 * s, ref.Degraded}},
			DurationNs:    22 * s,
		},
		{
			// The seed's first worked example: a quiet spell makes the load
			// Low and the keeper raises the global limit; then the operator
			// degrades and the heavy address bursts. It passes its raised rate
			// limit, and the degraded cap, which knows nothing of congestion,
			// refuses it.
			Name: "degraded-low", Title: "Degraded while congestion is Low",
			Config: baseConfig(5*s, 12),
			Addresses: addresses(
				steady(500*ms),
				[]Phase{{0, 0}},
				steady(500*ms),
				[]Phase{{0, 600 * ms}, {5 * s, 70 * ms}, {7 * s, 400 * ms}},
			),
			KeeperEveryNs: 1 * s,
			Script:        []Action{{5 * s, ref.Degraded}},
			DurationNs:    14 * s,
		},
		{
			// The seed's second worked example: the whitelisted issuer sends
			// more than the global limit and passes, until the operator
			// degrades: then its writes count toward the cap and are refused
			// at it like everyone else's.
			Name: "whitelisted-degraded", Title: "A whitelisted issuer while Degraded",
			Config: baseConfig(4*s, 14),
			Addresses: addresses(
				steady(400*ms),
				steady(100*ms),
				steady(400*ms),
				steady(300*ms),
			),
			KeeperEveryNs: 1 * s,
			Script:        []Action{{3 * s, ref.Degraded}},
			DurationNs:    10 * s,
		},
		{
			// Automatic recovery: a degraded period and a pause each end by
			// themselves at exactly their TTL, with nobody at the console.
			Name: "auto-recovery", Title: "Recovery at the TTL",
			Config: baseConfig(3*s, 10),
			Addresses: addresses(
				steady(250*ms),
				steady(250*ms),
				steady(250*ms),
				steady(150*ms),
			),
			KeeperEveryNs: 1 * s,
			Script:        []Action{{2 * s, ref.Degraded}, {7 * s, ref.Paused}},
			DurationNs:    12 * s,
		},
	}
}

// Preset returns the preset called name ("" is the first).
func Preset(name string) (Scenario, error) {
	all := Presets()
	if name == "" {
		return all[0], nil
	}
	for _, p := range all {
		if p.Name == name {
			return p, nil
		}
	}
	return Scenario{}, errors.New("throttle: no preset " + strconv.Quote(name))
}
