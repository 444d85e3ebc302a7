package throttle

import (
	"errors"
)

type address struct {
	override    RateLimit
	hasOverride bool
	whitelisted bool
	writes      timeLog
}

// Gate is a circuit breaker, a per-address rate limit and congestion
// throttling, in that order.
type Gate struct {
	cfg   Config
	clock uint64

	state          State
	recoverAt      uint64
	degradedWrites uint32

	maxCalls uint32
	level    Level

	addrs    map[uint64]*address
	accepted timeLog // every accepted write, for congestion
}

// New returns a gate at nowNs.
func New(cfg Config, nowNs uint64) (*Gate, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Gate{cfg: cfg, clock: nowNs, maxCalls: cfg.Rate.MaxCalls, level: NormalLoad, addrs: map[uint64]*address{}}, nil
}

// at advances the clock and applies automatic recovery.
func (g *Gate) at(nowNs uint64) {
	if nowNs > g.clock {
		g.clock = nowNs
	}
	if g.cfg.Breaker.AutoRecover && g.state != Normal && g.clock >= g.recoverAt {
		g.state, g.recoverAt, g.degradedWrites = Normal, 0, 0
	}
}

func (g *Gate) addr(a uint64) *address {
	p := g.addrs[a]
	if p == nil {
		p = &address{}
		g.addrs[a] = p
	}
	return p
}

// SetState is the operator's switch.
func (g *Gate) SetState(s State, nowNs uint64) {
	g.at(nowNs)
	g.state, g.degradedWrites, g.recoverAt = s, 0, 0
	if s != Normal && g.cfg.Breaker.AutoRecover {
		g.recoverAt = g.clock + g.cfg.Breaker.TTLNs
	}
}

// SetIssuerLimit gives addr a limit of its own.
func (g *Gate) SetIssuerLimit(addr uint64, rl RateLimit) error {
	if rl.MaxCalls == 0 {
		return errors.New("MaxCalls must be at least 1")
	}
	if rl.WindowNs == 0 {
		return errors.New("WindowNs must be at least 1")
	}
	a := g.addr(addr)
	a.override, a.hasOverride = rl, true
	a.writes.reset()
	return nil
}

// ClearIssuerLimit puts addr back under the global limit.
func (g *Gate) ClearIssuerLimit(addr uint64) {
	a := g.addr(addr)
	a.hasOverride = false
	a.writes.reset()
}

// SetWhitelisted puts addr on the whitelist or takes it off.
func (g *Gate) SetWhitelisted(addr uint64, on bool) {
	g.addr(addr).whitelisted = on
}

func (g *Gate) limitOf(a *address) (uint32, uint64) {
	if a.hasOverride {
		return a.override.MaxCalls, a.override.WindowNs
	}
	return g.maxCalls, g.cfg.Rate.WindowNs
}

// Write decides one mutating call of addr at nowNs.
func (g *Gate) Write(addr uint64, nowNs uint64) error {
	g.at(nowNs)
	if g.state == Paused {
		return ErrPaused
	}
	if g.state == Degraded && g.degradedWrites >= g.cfg.Breaker.DegradedWriteLimit {
		return ErrDegradedLimit
	}
	a := g.addr(addr)
	limit, window := g.limitOf(a)
	a.writes.trim(g.clock, window)
	if !a.whitelisted && uint64(a.writes.count()) >= uint64(limit) {
		return ErrRateLimited
	}
	a.writes.add(g.clock)
	g.accepted.trim(g.clock, g.cfg.Congestion.WindowNs)
	g.accepted.add(g.clock)
	if g.state == Degraded {
		g.degradedWrites++
	}
	return nil
}

// AdjustCongestion sets the level and, if it changed, moves MaxCalls.
func (g *Gate) AdjustCongestion(nowNs uint64) Level {
	g.at(nowNs)
	c := g.cfg.Congestion
	g.accepted.trim(g.clock, c.WindowNs)
	n := uint64(g.accepted.count())
	level := NormalLoad
	if n < uint64(c.LowBelow) {
		level = Low
	} else if n > uint64(c.HighAbove) {
		level = High
	}
	if level == g.level {
		return level
	}
	g.level = level
	m := uint64(g.maxCalls)
	switch level {
	case High:
		m -= m * uint64(c.ReduceBps) / 10000
	case Low:
		m += m * uint64(c.IncreaseBps) / 10000
	}
	m = max(uint64(c.MinMaxCalls), min(uint64(c.MaxMaxCalls), m))
	g.maxCalls = uint32(m)
	return level
}

// Status returns the whole picture at nowNs.
func (g *Gate) Status(nowNs uint64) Status {
	g.at(nowNs)
	return Status{
		State:              g.state,
		RecoverAtNs:        g.recoverAt,
		DegradedWriteLimit: g.cfg.Breaker.DegradedWriteLimit,
		DegradedWrites:     g.degradedWrites,
		MaxCalls:           g.maxCalls,
		WindowNs:           g.cfg.Rate.WindowNs,
		Level:              g.level,
		Congestion:         g.cfg.Congestion,
	}
}
