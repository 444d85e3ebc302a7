package throttle

import (
	"math"
	"math/big"
)

// model is the contract restated for clarity, not speed: every accepted
// write is kept with its time, windows are counted by looking at every
// one, and the basis-point steps are computed in math/big.
type model struct {
	cfg            Config
	latest         uint64
	state          State
	recoverAt      uint64
	degradedWrites uint32
	maxCalls       uint32
	level          Level
	overrides      map[uint64]RateLimit
	whitelisted    map[uint64]bool
	writes         map[uint64][]uint64 // each address's accepted writes since its window last started afresh
	accepted       []uint64            // every accepted write
	recovered      bool                // the latest timed call ended a period automatically
}

func newModel(cfg Config, now uint64) *model {
	return &model{
		cfg: cfg, latest: now, state: Normal, maxCalls: cfg.Rate.MaxCalls, level: NormalLoad,
		overrides: map[uint64]RateLimit{}, whitelisted: map[uint64]bool{}, writes: map[uint64][]uint64{},
	}
}

// tick is the start of every call that takes a time: the clock moves to
// now if it is later, then a period whose RecoverAtNs has come ends.
func (m *model) tick(now uint64) uint64 {
	m.latest = max(m.latest, now)
	m.recovered = false
	if m.cfg.Breaker.AutoRecover && m.state != Normal && m.latest >= m.recoverAt {
		m.state, m.recoverAt, m.degradedWrites = Normal, 0, 0
		m.recovered = true
	}
	return m.latest
}

func (m *model) setState(s State, now uint64) {
	now = m.tick(now)
	m.state, m.recoverAt, m.degradedWrites = s, 0, 0
	if s != Normal && m.cfg.Breaker.AutoRecover {
		m.recoverAt = saturating(now, m.cfg.Breaker.TTLNs)
	}
}

func saturating(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// setLimit reports whether SetIssuerLimit must fail (a 0 field).
func (m *model) setLimit(addr uint64, rl RateLimit) (fails bool) {
	if rl.MaxCalls == 0 || rl.WindowNs == 0 {
		return true
	}
	m.overrides[addr] = rl
	m.writes[addr] = nil
	return false
}

func (m *model) clearLimit(addr uint64) {
	delete(m.overrides, addr)
	m.writes[addr] = nil
}

func (m *model) setWhitelisted(addr uint64, on bool) { m.whitelisted[addr] = on }

// limitOf is the rate limit addr is judged by.
func (m *model) limitOf(addr uint64) RateLimit {
	if rl, ok := m.overrides[addr]; ok {
		return rl
	}
	return RateLimit{m.maxCalls, m.cfg.Rate.WindowNs}
}

// inWindow counts the times in (now-window, now]: t with now-t < window
// (no time is after now: the clock never moves back).
func inWindow(times []uint64, now, window uint64) uint64 {
	n := uint64(0)
	for _, t := range times {
		if now-t < window {
			n++
		}
	}
	return n
}

func (m *model) write(addr, now uint64) Refusal {
	now = m.tick(now)
	switch {
	case m.state == Paused:
		return ByPause
	case m.state == Degraded && m.degradedWrites >= m.cfg.Breaker.DegradedWriteLimit:
		return ByDegradedLimit
	}
	if rl := m.limitOf(addr); !m.whitelisted[addr] && inWindow(m.writes[addr], now, rl.WindowNs) >= uint64(rl.MaxCalls) {
		return ByRateLimit
	}
	if m.state == Degraded {
		m.degradedWrites++
	}
	m.writes[addr] = append(m.writes[addr], now)
	m.accepted = append(m.accepted, now)
	return Accepted
}

// levelAt is the level the accepted writes in the congestion window say.
func (m *model) levelAt(now uint64) Level {
	c := m.cfg.Congestion
	switch n := inWindow(m.accepted, now, c.WindowNs); {
	case n < uint64(c.LowBelow):
		return Low
	case n > uint64(c.HighAbove):
		return High
	}
	return NormalLoad
}

func (m *model) adjust(now uint64) Level {
	now = m.tick(now)
	level := m.levelAt(now)
	if level == m.level {
		return level
	}
	m.level = level
	c := m.cfg.Congestion
	x := new(big.Int).SetUint64(uint64(m.maxCalls))
	step := func(bps uint32) *big.Int {
		p := new(big.Int).Mul(x, new(big.Int).SetUint64(uint64(bps)))
		return p.Quo(p, big.NewInt(10_000))
	}
	switch level {
	case High:
		x.Sub(x, step(c.ReduceBps))
	case Low:
		x.Add(x, step(c.IncreaseBps))
	}
	lo, hi := new(big.Int).SetUint64(uint64(c.MinMaxCalls)), new(big.Int).SetUint64(uint64(c.MaxMaxCalls))
	if x.Cmp(lo) < 0 {
		x = lo
	}
	if x.Cmp(hi) > 0 {
		x = hi
	}
	m.maxCalls = uint32(x.Uint64())
	return level
}

func (m *model) status(now uint64) Status {
	m.tick(now)
	return Status{
		State: m.state, RecoverAtNs: m.recoverAt,
		DegradedWriteLimit: m.cfg.Breaker.DegradedWriteLimit, DegradedWrites: m.degradedWrites,
		MaxCalls: m.maxCalls, WindowNs: m.cfg.Rate.WindowNs, Level: m.level, Congestion: m.cfg.Congestion,
	}
}

// problem is one rule of New's validation a config breaks: the fields
// (dotted paths) of which its error must name one.
type problem struct{ fields []string }

// problems lists what is wrong with cfg, in the contract's order.
func problems(cfg Config) []problem {
	var out []problem
	add := func(fields ...string) { out = append(out, problem{fields}) }
	c := cfg.Congestion
	if cfg.Rate.MaxCalls == 0 {
		add("Rate.MaxCalls")
	}
	if cfg.Rate.WindowNs == 0 {
		add("Rate.WindowNs")
	}
	if c.WindowNs == 0 {
		add("Congestion.WindowNs")
	}
	if c.ReduceBps > 10_000 {
		add("Congestion.ReduceBps")
	}
	if c.MinMaxCalls > c.MaxMaxCalls || c.MinMaxCalls == 0 {
		add("Congestion.MinMaxCalls", "Congestion.MaxMaxCalls")
	}
	if c.LowBelow > c.HighAbove {
		add("Congestion.LowBelow", "Congestion.HighAbove")
	}
	if cfg.Breaker.AutoRecover && cfg.Breaker.TTLNs == 0 {
		add("Breaker.TTLNs", "Breaker.AutoRecover")
	}
	return out
}
