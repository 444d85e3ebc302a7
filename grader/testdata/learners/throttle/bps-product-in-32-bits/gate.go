package throttle

import (
	"errors"
	"math/bits"
)

// Gate is a circuit breaker, a per-address rate limit and congestion
// throttling, in that order.
type Gate struct {
	cfg Config
	now uint64

	state     State
	until     uint64 // when the period ends, if pending
	pending   bool
	spent     uint32 // degraded writes this period
	maxCalls  uint32
	level     Level
	overrides map[uint64]RateLimit
	white     map[uint64]bool
	history   map[uint64]*runs
	load      runs
}

// New returns a gate at nowNs.
func New(cfg Config, nowNs uint64) (*Gate, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &Gate{
		cfg: cfg, now: nowNs, maxCalls: cfg.Rate.MaxCalls, level: NormalLoad,
		overrides: map[uint64]RateLimit{}, white: map[uint64]bool{}, history: map[uint64]*runs{},
	}, nil
}

func (g *Gate) advance(nowNs uint64) {
	g.now = max(g.now, nowNs)
	if g.pending && g.now >= g.until {
		g.setPeriod(Normal)
	}
}

func (g *Gate) setPeriod(s State) {
	g.state, g.spent, g.pending, g.until = s, 0, false, 0
	if s == Normal || !g.cfg.Breaker.AutoRecover {
		return
	}
	sum, carry := bits.Add64(g.now, g.cfg.Breaker.TTLNs, 0)
	if carry != 0 {
		sum = ^uint64(0)
	}
	g.until, g.pending = sum, true
}

// SetState is the operator's switch.
func (g *Gate) SetState(s State, nowNs uint64) {
	g.advance(nowNs)
	g.setPeriod(s)
}

// SetIssuerLimit gives addr a limit of its own.
func (g *Gate) SetIssuerLimit(addr uint64, rl RateLimit) error {
	switch {
	case rl.MaxCalls == 0:
		return errors.New("throttle: override MaxCalls must be at least 1")
	case rl.WindowNs == 0:
		return errors.New("throttle: override WindowNs must be at least 1")
	}
	g.overrides[addr] = rl
	g.restart(addr)
	return nil
}

// ClearIssuerLimit puts addr back under the global limit.
func (g *Gate) ClearIssuerLimit(addr uint64) {
	delete(g.overrides, addr)
	g.restart(addr)
}

func (g *Gate) restart(addr uint64) {
	if h := g.history[addr]; h != nil {
		h.forget()
	}
}

// SetWhitelisted puts addr on the whitelist or takes it off.
func (g *Gate) SetWhitelisted(addr uint64, on bool) {
	if on {
		g.white[addr] = true
	} else {
		delete(g.white, addr)
	}
}

// Write decides one mutating call of addr at nowNs.
func (g *Gate) Write(addr uint64, nowNs uint64) error {
	g.advance(nowNs)
	switch g.state {
	case Paused:
		return ErrPaused
	case Degraded:
		if g.spent >= g.cfg.Breaker.DegradedWriteLimit {
			return ErrDegradedLimit
		}
	}
	rl, own := g.overrides[addr]
	if !own {
		rl = RateLimit{MaxCalls: g.maxCalls, WindowNs: g.cfg.Rate.WindowNs}
	}
	h := g.history[addr]
	if h == nil {
		h = &runs{}
		g.history[addr] = h
	}
	h.expire(g.now, rl.WindowNs)
	if h.total >= uint64(rl.MaxCalls) && !g.white[addr] {
		return ErrRateLimited
	}
	h.record(g.now)
	g.load.expire(g.now, g.cfg.Congestion.WindowNs)
	g.load.record(g.now)
	if g.state == Degraded {
		g.spent++
	}
	return nil
}

// AdjustCongestion sets the level and, if it changed, moves MaxCalls.
func (g *Gate) AdjustCongestion(nowNs uint64) Level {
	g.advance(nowNs)
	k := g.cfg.Congestion
	g.load.expire(g.now, k.WindowNs)
	var lv Level
	switch n := g.load.total; {
	case n > uint64(k.HighAbove):
		lv = High
	case n < uint64(k.LowBelow):
		lv = Low
	default:
		lv = NormalLoad
	}
	if lv != g.level {
		g.level = lv
		m := uint64(g.maxCalls)
		if lv == High {
			m -= uint64(g.maxCalls * k.ReduceBps / 10000)
		} else if lv == Low {
			m += uint64(g.maxCalls * k.IncreaseBps / 10000)
		}
		if m > uint64(k.MaxMaxCalls) {
			m = uint64(k.MaxMaxCalls)
		}
		if m < uint64(k.MinMaxCalls) {
			m = uint64(k.MinMaxCalls)
		}
		g.maxCalls = uint32(m)
	}
	return lv
}

// Status returns the whole picture at nowNs.
func (g *Gate) Status(nowNs uint64) Status {
	g.advance(nowNs)
	return Status{
		State: g.state, RecoverAtNs: g.until,
		DegradedWriteLimit: g.cfg.Breaker.DegradedWriteLimit, DegradedWrites: g.spent,
		MaxCalls: g.maxCalls, WindowNs: g.cfg.Rate.WindowNs,
		Level: g.level, Congestion: g.cfg.Congestion,
	}
}
