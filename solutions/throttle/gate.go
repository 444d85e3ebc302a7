package throttle

import (
	"errors"
	"math"
)

// Gate decides writes: the breaker, then the address's rate limit; it
// keeps the accepted writes congestion throttling reads. The zero value is
// not usable: call New.
type Gate struct {
	cfg      Config
	latest   uint64 // the clock: the latest time seen
	state    State
	recover  uint64 // RecoverAtNs; 0: none pending
	degraded uint32 // writes accepted in this degraded period
	maxCalls uint32 // the global limit
	keep     uint32 // the most the global limit can ever be: max(Rate.MaxCalls, MaxMaxCalls)
	level    Level
	addrs    addresses
	recent   history // the accepted writes, for congestion
}

// New returns a gate in state Normal at level NormalLoad with the global
// limit cfg.Rate, whose clock is at nowNs, or an error naming every
// invalid field by its dotted path (e.g. Congestion.WindowNs).
func New(cfg Config, nowNs uint64) (*Gate, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Gate{cfg: cfg, latest: nowNs, maxCalls: cfg.Rate.MaxCalls, keep: max(cfg.Rate.MaxCalls, cfg.Congestion.MaxMaxCalls), level: NormalLoad}, nil
}

// tick moves the clock to nowNs if it is later, applies automatic recovery
// at the clock, and returns it.
func (g *Gate) tick(nowNs uint64) uint64 {
	g.latest = max(g.latest, nowNs)
	if g.recover != 0 && g.latest >= g.recover {
		g.state, g.recover, g.degraded = Normal, 0, 0
	}
	return g.latest
}

// SetState is the operator's switch: Degraded or Paused starts a new
// period (even from the same state), with no writes counted and, with
// AutoRecover, a recovery TTLNs from now; Normal ends the period.
func (g *Gate) SetState(s State, nowNs uint64) {
	now := g.tick(nowNs)
	g.state, g.recover, g.degraded = s, 0, 0
	if s != Normal && g.cfg.Breaker.AutoRecover {
		g.recover = math.MaxUint64
		if now <= math.MaxUint64-g.cfg.Breaker.TTLNs {
			g.recover = now + g.cfg.Breaker.TTLNs
		}
	}
}

// SetIssuerLimit gives addr a limit of its own, which wins over the global
// one and which congestion never moves; addr's window starts afresh. A 0
// field is an error naming it, and nothing changes.
func (g *Gate) SetIssuerLimit(addr uint64, rl RateLimit) error {
	switch {
	case rl.MaxCalls == 0:
		return errors.New("throttle: RateLimit.MaxCalls is 0 (at least 1)")
	case rl.WindowNs == 0:
		return errors.New("throttle: RateLimit.WindowNs is 0 (at least 1)")
	}
	a := g.addrs.at(addr)
	a.override = rl
	a.log.reset()
	return nil
}

// ClearIssuerLimit puts addr back under the global limit; its window
// starts afresh, whether it had an override or not.
func (g *Gate) ClearIssuerLimit(addr uint64) {
	if a := g.addrs.get(addr); a != nil {
		a.override = RateLimit{}
		a.log.reset()
	}
}

// SetWhitelisted puts addr on the whitelist (on) or takes it off. A
// whitelisted address skips the rate limit, and nothing else: the breaker
// still refuses it, and its accepted writes count everywhere.
func (g *Gate) SetWhitelisted(addr uint64, on bool) {
	if a := g.addrs.get(addr); a != nil || on {
		g.addrs.at(addr).whitelisted = on
	}
}

// Write decides one mutating call of addr at nowNs, stopping at the first
// refusal: ErrPaused, ErrDegradedLimit (whitelisted or not), then
// ErrRateLimited (unless whitelisted) when addr already has its limit of
// accepted writes in the window. An accepted write counts toward the
// degraded period, addr's window and congestion's window.
func (g *Gate) Write(addr uint64, nowNs uint64) error {
	now := g.tick(nowNs)
	if g.state == Paused {
		return ErrPaused
	}
	if g.state == Degraded && g.degraded >= g.cfg.Breaker.DegradedWriteLimit {
		return ErrDegradedLimit
	}
	a := g.addrs.at(addr)
	// The address's log keeps as many writes as the largest limit that can
	// apply to it: its override's, or the most congestion can ever make
	// the global one.
	limit, keep := RateLimit{g.maxCalls, g.cfg.Rate.WindowNs}, g.keep
	if a.override.MaxCalls != 0 {
		limit, keep = a.override, a.override.MaxCalls
	}
	if !a.whitelisted && a.log.atLimit(now, limit.WindowNs, limit.MaxCalls) {
		return ErrRateLimited
	}
	if g.state == Degraded {
		g.degraded++
	}
	a.log.add(now, limit.WindowNs, keep)
	g.recent.add(now, g.cfg.Congestion.WindowNs)
	return nil
}

// AdjustCongestion is the keeper: it sets the level from the accepted
// writes in (now-Congestion.WindowNs, now] and, if the level changed,
// moves the global limit by the basis points (down on a change to High,
// up on a change to Low), clamped. It returns the level.
func (g *Gate) AdjustCongestion(nowNs uint64) Level {
	now := g.tick(nowNs)
	c := g.cfg.Congestion
	n := g.recent.count(now, c.WindowNs)
	level := NormalLoad
	switch {
	case n < uint64(c.LowBelow):
		level = Low
	case n > uint64(c.HighAbove):
		level = High
	}
	if level == g.level {
		return level
	}
	g.level = level
	m := uint64(g.maxCalls) // products in 64 bits: both factors are below 2^32
	switch level {
	case High:
		m -= m * uint64(c.ReduceBps) / 10_000
	case Low:
		m += m * uint64(c.IncreaseBps) / 10_000
	}
	g.maxCalls = uint32(min(max(m, uint64(c.MinMaxCalls)), uint64(c.MaxMaxCalls)))
	return level
}

// Status returns the whole picture at nowNs, after automatic recovery.
func (g *Gate) Status(nowNs uint64) Status {
	g.tick(nowNs)
	return Status{
		State: g.state, RecoverAtNs: g.recover,
		DegradedWriteLimit: g.cfg.Breaker.DegradedWriteLimit, DegradedWrites: g.degraded,
		MaxCalls: g.maxCalls, WindowNs: g.cfg.Rate.WindowNs,
		Level: g.level, Congestion: g.cfg.Congestion,
	}
}
