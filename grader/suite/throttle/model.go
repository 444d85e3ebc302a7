package throttle

import (
	"math"
	"math/big"
)

// model is the contract restated for clarity, not speed: every accepted
// write is kept with its time, windows are counted by looking at every
// one, and the basis-point steps are computed in math/big.
//
// With mistake set, it is the contract with that one rule broken, as a
// learner breaks it (see mistakes.go): each switch sits beside the rule it
// breaks, so that the difference between the two is the lesson.
type model struct {
	mistake        string // "" for the contract; else a mistake's name
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

func newModel(cfg Config, now uint64) *model { return newMistaken(cfg, now, "") }

// newMistaken is New for the model that makes the named mistake ("" for
// none).
func newMistaken(cfg Config, now uint64, mistake string) *model {
	m := &model{
		mistake: mistake,
		cfg:     cfg, latest: now, state: Normal, maxCalls: cfg.Rate.MaxCalls, level: NormalLoad,
		overrides: map[uint64]RateLimit{}, whitelisted: map[uint64]bool{}, writes: map[uint64][]uint64{},
	}
	if m.makes("clamps-at-start") {
		c := cfg.Congestion
		m.maxCalls = min(max(m.maxCalls, c.MinMaxCalls), c.MaxMaxCalls)
	}
	return m
}

// makes reports whether the model makes one of the named mistakes.
func (m *model) makes(mistakes ...string) bool {
	for _, name := range mistakes {
		if m.mistake == name {
			return true
		}
	}
	return false
}

// tick is the start of every call that takes a time: the clock moves to
// now if it is later, then a period whose RecoverAtNs has come ends, as
// if SetState(Normal) had been called.
func (m *model) tick(now uint64) uint64 {
	if m.makes("rewinds-clock", "rewinds-clock-wraps", "rewinds-clock-forgets") {
		m.latest = now // an earlier nowNs moves the clock back
	} else {
		m.latest = max(m.latest, now)
	}
	m.recovered = false
	if m.recoveryDue() {
		m.state = Normal
		if !m.makes("recovery-keeps-recover-at") {
			m.recoverAt = 0
		}
		if !m.makes("recovery-keeps-count") {
			m.degradedWrites = 0
		}
		m.recovered = true
	}
	return m.latest
}

// recoveryDue reports whether, with AutoRecover, a Degraded or Paused
// period is over: at RecoverAtNs itself it is.
func (m *model) recoveryDue() bool {
	auto := m.cfg.Breaker.AutoRecover || m.makes("recovers-without-autorecover")
	switch {
	case !auto || m.state == Normal:
		return false
	case m.makes("recovers-after"):
		return m.latest > m.recoverAt
	}
	return m.latest >= m.recoverAt
}

// setState: Degraded or Paused starts a new period, even from the same
// state (DegradedWrites = 0, RecoverAtNs = now+TTLNs saturating, with
// AutoRecover); Normal ends it.
func (m *model) setState(s State, now uint64) {
	if !m.makes("setstate-own-clock") {
		now = m.tick(now)
	}
	if m.makes("same-state-keeps-period") && s == m.state {
		return
	}
	keepCount := m.makes("period-not-reset") && s == Degraded && m.state == Degraded ||
		m.makes("only-degraded-resets-count") && s != Degraded
	m.state, m.recoverAt = s, 0
	if !keepCount {
		m.degradedWrites = 0
	}
	if s != Normal && m.cfg.Breaker.AutoRecover {
		m.recoverAt = saturating(now, m.cfg.Breaker.TTLNs)
		if m.makes("ttl-wraps") {
			m.recoverAt = now + m.cfg.Breaker.TTLNs
		}
	}
}

func saturating(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// setLimit reports whether SetIssuerLimit must fail (a 0 field). Setting
// an override starts the address's window afresh.
func (m *model) setLimit(addr uint64, rl RateLimit) (fails bool) {
	if m.makes("failed-limit-resets-window") {
		m.writes[addr] = nil // before it looks at rl
	}
	if rl.MaxCalls == 0 || rl.WindowNs == 0 {
		return true
	}
	m.overrides[addr] = rl
	if !m.makes("override-keeps-history") {
		m.writes[addr] = nil
	}
	return false
}

// clearLimit: clearing an override, even none, starts the address's
// window afresh.
func (m *model) clearLimit(addr uint64) {
	_, had := m.overrides[addr]
	delete(m.overrides, addr)
	switch {
	case m.makes("override-keeps-history", "clear-keeps-history"):
	case m.makes("clear-without-override-keeps-history") && !had:
	default:
		m.writes[addr] = nil
	}
}

func (m *model) setWhitelisted(addr uint64, on bool) {
	m.whitelisted[addr] = on
	if m.makes("whitelist-forgets-window") {
		m.writes[addr] = nil
	}
}

// limitOf is the rate limit addr is judged by: its override if it has
// one, else the global {MaxCalls, WindowNs}.
func (m *model) limitOf(addr uint64) RateLimit {
	global := RateLimit{m.maxCalls, m.cfg.Rate.WindowNs}
	o, ok := m.overrides[addr]
	switch {
	case !ok:
		return global
	case m.makes("override-as-cap"):
		return RateLimit{min(o.MaxCalls, global.MaxCalls), o.WindowNs}
	case m.makes("override-global-window"):
		return RateLimit{o.MaxCalls, global.WindowNs}
	}
	return o
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

// count is inWindow as the model counts: an address's window, or the
// congestion window if congestion.
func (m *model) count(times []uint64, now, window uint64, congestion bool) uint64 {
	n := uint64(0)
	for _, t := range times {
		if m.inside(t, now, window, congestion) {
			n++
		}
	}
	return n
}

// inside reports whether a write at t is in the window (now-window, now]:
// a write exactly window old has left it, and now-window must not wrap.
func (m *model) inside(t, now, window uint64, congestion bool) bool {
	switch {
	case m.makes("windows-keep-edge"), m.makes("window-keeps-edge") && !congestion, m.makes("congestion-window-edge") && congestion:
		return now-t <= window
	case m.makes("wrapping-window-start"):
		return t > now-window
	case m.makes("window-start-clamped"):
		start := uint64(0)
		if now >= window {
			start = now - window
		}
		return t > start
	case m.makes("rewinds-clock"):
		return t >= now || now-t < window // a write later than now is in
	case m.forgets():
		return true // what forget left
	}
	return now-t < window
}

// forgets reports whether the model's windows forget, oldest first, the
// writes that have left them as it counts (as a ring or a queue does),
// and count what is left: for the contract the same as counting the
// writes in the window, not for the mistakes that forget too much.
func (m *model) forgets() bool { return m.makes("rewinds-clock-forgets", "wrapping-window-forgets") }

// forget drops, if the model forgets, the oldest writes of times while
// they have left the window (now-window, now].
func (m *model) forget(times *[]uint64, now, window uint64) {
	left := func(t uint64) bool {
		if m.makes("wrapping-window-forgets") {
			return t <= now-window
		}
		return now-t >= window // wraps for a write later than now
	}
	for m.forgets() && len(*times) > 0 && left((*times)[0]) {
		*times = (*times)[1:]
	}
}

// rateLimited reports whether addr, unless whitelisted, already has
// MaxCalls accepted writes in (now-WindowNs, now] of its limit rl.
func (m *model) rateLimited(addr, now uint64, rl RateLimit, white bool) bool {
	w := m.writes[addr]
	m.forget(&w, now, rl.WindowNs)
	m.writes[addr] = w
	if white {
		return false
	}
	n := m.count(m.writes[addr], now, rl.WindowNs, false)
	if m.makes("fixed-window") {
		n = fixedWindowCount(m.writes[addr], now, rl.WindowNs)
	}
	if m.makes("limit-off-by-one") {
		return n > uint64(rl.MaxCalls)
	}
	return n >= uint64(rl.MaxCalls)
}

// fixedWindowCount is the count of a fixed window: one starts at a write
// that finds none going on, and lasts window ns.
func fixedWindowCount(times []uint64, now, window uint64) uint64 {
	start, n := uint64(0), uint64(0)
	for _, t := range times {
		if n == 0 || t-start >= window {
			start, n = t, 0
		}
		n++
	}
	if n > 0 && now-start >= window {
		return 0
	}
	return n
}

// capReached reports whether the degraded period refuses the next write.
func (m *model) capReached() bool {
	if m.makes("degraded-cap-off-by-one") {
		return m.degradedWrites > m.cfg.Breaker.DegradedWriteLimit
	}
	return m.degradedWrites >= m.cfg.Breaker.DegradedWriteLimit
}

func (m *model) write(addr, now uint64) Refusal {
	if m.makes("write-no-recovery") {
		m.latest = max(m.latest, now) // the clock moves, but no period ends
		now = m.latest
	} else {
		now = m.tick(now)
	}
	white := m.whitelisted[addr]
	rl := m.limitOf(addr)
	// The throttles, in the contract's order, each asked only if those
	// before it let the write through: the pause and the degraded cap
	// (whitelisted too), then the rate limit (unless whitelisted).
	// Congestion is not one of them.
	type throttle struct {
		refuses func() bool
		by      Refusal
		rate    bool // the address's own rate limit
	}
	pause := throttle{func() bool {
		return m.state == Paused && !(white && m.makes("whitelist-skips-pause", "whitelist-skips-breaker"))
	}, ByPause, false}
	capped := throttle{func() bool {
		return m.state == Degraded && m.capReached() && !(white && m.makes("whitelist-skips-degraded-cap", "whitelist-skips-breaker"))
	}, ByDegradedLimit, false}
	congestion := throttle{func() bool { return m.congestionRefuses(white, now) }, ByRateLimit, false}
	rate := throttle{func() bool { return m.rateLimited(addr, now, rl, white) }, ByRateLimit, true}
	order := []throttle{pause, capped, congestion, rate}
	switch {
	case m.makes("rate-first"):
		order = []throttle{rate, pause, capped}
	case m.makes("rate-before-degraded"):
		order = []throttle{pause, rate, capped}
	}
	for _, t := range order {
		if t.refuses() {
			m.refused(addr, now, t.rate)
			return t.by
		}
	}
	// Accepted: it counts toward the degraded period (if Degraded), the
	// address's window and the congestion window, whitelisted or not.
	if (m.state == Degraded || m.makes("degraded-counts-always")) && !(white && m.makes("whitelist-not-in-period", "whitelist-uncounted-everywhere")) {
		m.degradedWrites++
	}
	if !(white && m.makes("whitelist-uncounted", "whitelist-uncounted-everywhere")) {
		m.writes[addr] = append(m.writes[addr], now)
	}
	if !(white && m.makes("whitelist-not-in-congestion", "whitelist-uncounted-everywhere")) {
		m.forget(&m.accepted, now, m.cfg.Congestion.WindowNs)
		m.accepted = append(m.accepted, now)
	}
	return Accepted
}

// congestionRefuses is false: congestion is not a gate (but for the
// mistakes that make it one).
func (m *model) congestionRefuses(white bool, now uint64) bool {
	c := m.cfg.Congestion
	switch {
	case m.makes("high-refuses"):
		return m.level == High
	case m.makes("high-refuses-unlisted"):
		return !white && m.level == High
	case m.makes("congestion-count-refuses"):
		return m.count(m.accepted, now, c.WindowNs, true) > uint64(c.HighAbove)
	}
	return false
}

// refused: a refused write counts nowhere (rate, whether the rate limit
// refused it).
func (m *model) refused(addr, now uint64, rate bool) {
	if rate && m.makes("counts-refused") || m.makes("counts-every-refused") {
		m.writes[addr] = append(m.writes[addr], now)
	}
	if m.makes("congestion-counts-every-write") {
		m.accepted = append(m.accepted, now)
	}
	if rate && m.state == Degraded && m.makes("degraded-counts-refused") {
		m.degradedWrites++
	}
}

// levelAt is the level the accepted writes in the congestion window say.
func (m *model) levelAt(now uint64) Level {
	c := m.cfg.Congestion
	m.forget(&m.accepted, now, c.WindowNs)
	n := m.count(m.accepted, now, c.WindowNs, true)
	low, high := n < uint64(c.LowBelow), n > uint64(c.HighAbove)
	if m.makes("low-inclusive") {
		low = n <= uint64(c.LowBelow)
	}
	if m.makes("high-inclusive") {
		high = n >= uint64(c.HighAbove)
	}
	switch {
	case low:
		return Low
	case high:
		return High
	}
	return NormalLoad
}

// adjust: only if the level changed, the global MaxCalls moves, down on
// a change to High, up on a change to Low, not at all on a change to
// NormalLoad, then is clamped; overrides never move.
func (m *model) adjust(now uint64) Level {
	now = m.tick(now)
	level, from := m.levelAt(now), m.level
	changed := level != from
	if !changed && !m.makes("moves-without-change") || m.makes("moves-only-from-normal") && from != NormalLoad {
		m.level = level
		return level
	}
	m.level = level
	mv := stay
	switch {
	case m.makes("steps-by-direction") && level > from:
		mv = down // up a level reduces, down a level raises
	case m.makes("steps-by-direction") && level < from:
		mv = up
	case level == High:
		mv = down
	case level == Low:
		mv = up
	}
	old := m.maxCalls
	m.maxCalls = m.stepLimit(m.maxCalls, mv)
	if m.makes("override-moved-by-congestion") {
		for a, o := range m.overrides {
			o.MaxCalls = m.stepLimit(o.MaxCalls, mv)
			m.overrides[a] = o
		}
	}
	if m.makes("global-change-resets-history") && m.maxCalls != old {
		for a := range m.writes {
			if _, ok := m.overrides[a]; !ok {
				m.writes[a] = nil
			}
		}
	}
	return level
}

// move is how a level change moves the global MaxCalls.
type move int

const (
	stay move = iota // a change to NormalLoad: only the clamp
	down             // to High: by ReduceBps
	up               // to Low: by IncreaseBps
)

var (
	two32 = new(big.Int).Lsh(big.NewInt(1), 32)
	bps1  = big.NewInt(10_000)
)

// stepLimit is x moved down by x*ReduceBps/10000, or up by
// x*IncreaseBps/10000, or not at all, exactly, rounded down, then clamped
// into [MinMaxCalls, MaxMaxCalls].
func (m *model) stepLimit(x uint32, mv move) uint32 {
	c := m.cfg.Congestion
	bps := map[move]uint32{stay: 0, down: c.ReduceBps, up: c.IncreaseBps}[mv]
	v := new(big.Int).SetUint64(uint64(x))
	p := new(big.Int).Mul(v, new(big.Int).SetUint64(uint64(bps)))
	if m.makes("step-in-32-bits") {
		p.Mod(p, two32)
	}
	d := p.Quo(p, bps1)
	switch {
	case mv == down && m.makes("reduce-rounds-result"): // x*(10000-bps)/10000
		v.Mul(v, new(big.Int).SetUint64(uint64(10_000-bps)))
		v.Quo(v, bps1)
	case mv == down:
		v.Sub(v, d)
	default:
		v.Add(v, d)
	}
	if m.makes("step-in-32-bits", "narrows-before-clamp", "no-clamp") {
		v.Mod(v, two32)
	}
	if !m.makes("no-clamp") {
		lo, hi := new(big.Int).SetUint64(uint64(c.MinMaxCalls)), new(big.Int).SetUint64(uint64(c.MaxMaxCalls))
		if v.Cmp(lo) < 0 {
			v = lo
		}
		if v.Cmp(hi) > 0 {
			v = hi
		}
	}
	return uint32(v.Uint64())
}

// status is the picture after automatic recovery at now; Level and
// MaxCalls as the last AdjustCongestion left them.
func (m *model) status(now uint64) Status {
	switch {
	case m.makes("status-no-clock"):
	case m.makes("status-no-recovery"):
		m.latest = max(m.latest, now)
	default:
		m.tick(now)
	}
	s := Status{
		State: m.state, RecoverAtNs: m.recoverAt,
		DegradedWriteLimit: m.cfg.Breaker.DegradedWriteLimit, DegradedWrites: m.degradedWrites,
		MaxCalls: m.maxCalls, WindowNs: m.cfg.Rate.WindowNs, Level: m.level, Congestion: m.cfg.Congestion,
	}
	if m.makes("status-live-level") {
		s.Level = m.levelAt(m.latest)
	}
	if m.makes("status-reports-configured-max") {
		s.MaxCalls = m.cfg.Rate.MaxCalls
	}
	return s
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
