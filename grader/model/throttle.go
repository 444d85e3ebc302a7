package model

import (
	"math"
	"math/big"

	"ratelab/lab/contract"
)

// ThrottleState and ThrottleLevel are what a gate's state and congestion
// level types must be: numbered as the throttle exercise numbers them,
// Normal 0, Degraded 1, Paused 2; Low 0, NormalLoad 1, High 2 (the
// exercise's types and the lab's are).
type (
	ThrottleState interface{ ~uint8 }
	ThrottleLevel interface{ ~uint8 }
)

// The contract's states and levels, whatever their types.
const (
	throttleNormal, throttleDegraded, throttlePaused = 0, 1, 2
	levelLow, levelNormal, levelHigh                 = 0, 1, 2
)

// ThrottleBreakerConfig, ThrottleRate, ThrottleCongestion and
// ThrottleConfig are the exercise's BreakerConfig, RateLimit,
// CongestionConfig and Config (lab/contract).
type (
	ThrottleBreakerConfig = contract.ThrottleBreakerConfig
	ThrottleRate          = contract.ThrottleRate
	ThrottleCongestion    = contract.ThrottleCongestion
	ThrottleConfig        = contract.ThrottleConfig
)

// ThrottleStatus is the exercise's Status.
type ThrottleStatus[S ThrottleState, L ThrottleLevel] struct {
	State                              S
	RecoverAtNs                        uint64
	DegradedWriteLimit, DegradedWrites uint32
	MaxCalls                           uint32
	WindowNs                           uint64
	Level                              L
	Congestion                         ThrottleCongestion
}

// ThrottleRefusal is what refused a write: which of the exercise's three
// errors Write returns.
type ThrottleRefusal uint8

const (
	ThrottleAccepted        ThrottleRefusal = iota // nil
	ThrottleByPause                                // ErrPaused
	ThrottleByDegradedLimit                        // ErrDegradedLimit
	ThrottleByRateLimit                            // ErrRateLimited
)

// Throttle is the throttle exercise's gate (the doc of exercises/throttle)
// restated for clarity, not speed: every accepted write is kept with its
// time, windows are counted by looking at every one, and the basis-point
// steps are computed in math/big. It is the gate's one latest time, its
// breaker's state, recovery time and degraded writes, the global MaxCalls
// and congestion level as AdjustCongestion left them, the overrides and
// the whitelist, each address's accepted writes since its window last
// started afresh, and every accepted write (for congestion).
//
// With Mistake set, it is the contract with that one rule broken, as a
// learner breaks it: the throttle suite's mistakes (grader/suite/throttle)
// are these switches, by name. Each sits beside the rule it breaks, so
// that the difference between the two is the lesson. The browser's replay
// uses the contract, Mistake "".
type Throttle[S ThrottleState, L ThrottleLevel] struct {
	Mistake        string // "" for the contract; else a mistake's name
	Cfg            ThrottleConfig
	Latest         uint64
	Current        S
	RecoverAt      uint64
	DegradedWrites uint32
	MaxCalls       uint32
	Level          L
	Overrides      map[uint64]ThrottleRate
	Whitelisted    map[uint64]bool
	Writes         map[uint64][]uint64 // each address's accepted writes since its window last started afresh
	Accepted       []uint64            // every accepted write
	Recovered      bool                // the latest timed call ended a period automatically
}

// NewThrottle is New(cfg, now) for a valid cfg, for the model that makes
// the named mistake ("" for none).
func NewThrottle[S ThrottleState, L ThrottleLevel](cfg ThrottleConfig, now uint64, mistake string) *Throttle[S, L] {
	m := &Throttle[S, L]{
		Mistake: mistake,
		Cfg:     cfg, Latest: now, Current: throttleNormal, MaxCalls: cfg.Rate.MaxCalls, Level: levelNormal,
		Overrides: map[uint64]ThrottleRate{}, Whitelisted: map[uint64]bool{}, Writes: map[uint64][]uint64{},
	}
	if m.makes("clamps-at-start") {
		c := cfg.Congestion
		m.MaxCalls = min(max(m.MaxCalls, c.MinMaxCalls), c.MaxMaxCalls)
	}
	return m
}

// makes reports whether the model makes one of the named mistakes.
func (m *Throttle[S, L]) makes(mistakes ...string) bool {
	for _, name := range mistakes {
		if m.Mistake == name {
			return true
		}
	}
	return false
}

// Tick is the start of every call that takes a time: the clock moves to
// now if it is later, then a period whose RecoverAtNs has come ends, as
// if SetState(Normal) had been called.
func (m *Throttle[S, L]) Tick(now uint64) uint64 {
	if m.makes("rewinds-clock", "rewinds-clock-wraps", "rewinds-clock-forgets") {
		m.Latest = now // an earlier nowNs moves the clock back
	} else {
		m.Latest = max(m.Latest, now)
	}
	m.Recovered = false
	if m.recoveryDue() {
		m.Current = throttleNormal
		if !m.makes("recovery-keeps-recover-at") {
			m.RecoverAt = 0
		}
		if !m.makes("recovery-keeps-count") {
			m.DegradedWrites = 0
		}
		m.Recovered = true
	}
	return m.Latest
}

// recoveryDue reports whether, with AutoRecover, a Degraded or Paused
// period is over: at RecoverAtNs itself it is.
func (m *Throttle[S, L]) recoveryDue() bool {
	auto := m.Cfg.Breaker.AutoRecover || m.makes("recovers-without-autorecover")
	switch {
	case !auto || m.Current == throttleNormal:
		return false
	case m.makes("recovers-after"):
		return m.Latest > m.RecoverAt
	}
	return m.Latest >= m.RecoverAt
}

// SetState: Degraded or Paused starts a new period, even from the same
// state (DegradedWrites = 0, RecoverAtNs = now+TTLNs saturating, with
// AutoRecover); Normal ends it.
func (m *Throttle[S, L]) SetState(s S, now uint64) {
	if !m.makes("setstate-own-clock") {
		now = m.Tick(now)
	}
	if m.makes("same-state-keeps-period") && s == m.Current {
		return
	}
	keepCount := m.makes("period-not-reset") && s == throttleDegraded && m.Current == throttleDegraded ||
		m.makes("only-degraded-resets-count") && s != throttleDegraded
	m.Current, m.RecoverAt = s, 0
	if !keepCount {
		m.DegradedWrites = 0
	}
	if s != throttleNormal && m.Cfg.Breaker.AutoRecover {
		m.RecoverAt = saturating(now, m.Cfg.Breaker.TTLNs)
		if m.makes("ttl-wraps") {
			m.RecoverAt = now + m.Cfg.Breaker.TTLNs
		}
	}
}

func saturating(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// SetIssuerLimit reports whether it must fail (a 0 field). Setting
// an override starts the address's window afresh.
func (m *Throttle[S, L]) SetIssuerLimit(addr uint64, rl ThrottleRate) (fails bool) {
	if m.makes("failed-limit-resets-window") {
		m.Writes[addr] = nil // before it looks at rl
	}
	if rl.MaxCalls == 0 || rl.WindowNs == 0 {
		return true
	}
	m.Overrides[addr] = rl
	if !m.makes("override-keeps-history") {
		m.Writes[addr] = nil
	}
	return false
}

// ClearIssuerLimit: clearing an override, even none, starts the address's
// window afresh.
func (m *Throttle[S, L]) ClearIssuerLimit(addr uint64) {
	_, had := m.Overrides[addr]
	delete(m.Overrides, addr)
	switch {
	case m.makes("override-keeps-history", "clear-keeps-history"):
	case m.makes("clear-without-override-keeps-history") && !had:
	default:
		m.Writes[addr] = nil
	}
}

func (m *Throttle[S, L]) SetWhitelisted(addr uint64, on bool) {
	m.Whitelisted[addr] = on
	if m.makes("whitelist-forgets-window") {
		m.Writes[addr] = nil
	}
}

// LimitOf is the rate limit addr is judged by: its override if it has
// one, else the global {MaxCalls, WindowNs}.
func (m *Throttle[S, L]) LimitOf(addr uint64) ThrottleRate {
	global := ThrottleRate{MaxCalls: m.MaxCalls, WindowNs: m.Cfg.Rate.WindowNs}
	o, ok := m.Overrides[addr]
	switch {
	case !ok:
		return global
	case m.makes("override-as-cap"):
		return ThrottleRate{MaxCalls: min(o.MaxCalls, global.MaxCalls), WindowNs: o.WindowNs}
	case m.makes("override-global-window"):
		return ThrottleRate{MaxCalls: o.MaxCalls, WindowNs: global.WindowNs}
	}
	return o
}

// CountInWindow counts the times in (now-window, now]: t with now-t < window
// (no time is after now: the clock never moves back).
func CountInWindow(times []uint64, now, window uint64) uint64 {
	n := uint64(0)
	for _, t := range times {
		if now-t < window {
			n++
		}
	}
	return n
}

// count is CountInWindow as the model counts: an address's window, or the
// congestion window if congestion.
func (m *Throttle[S, L]) count(times []uint64, now, window uint64, congestion bool) uint64 {
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
func (m *Throttle[S, L]) inside(t, now, window uint64, congestion bool) bool {
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
func (m *Throttle[S, L]) forgets() bool {
	return m.makes("rewinds-clock-forgets", "wrapping-window-forgets")
}

// forget drops, if the model forgets, the oldest writes of times while
// they have left the window (now-window, now].
func (m *Throttle[S, L]) forget(times *[]uint64, now, window uint64) {
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
func (m *Throttle[S, L]) rateLimited(addr, now uint64, rl ThrottleRate, white bool) bool {
	w := m.Writes[addr]
	m.forget(&w, now, rl.WindowNs)
	m.Writes[addr] = w
	if white {
		return false
	}
	n := m.count(m.Writes[addr], now, rl.WindowNs, false)
	if m.makes("fixed-window") {
		n = fixedWindowCount(m.Writes[addr], now, rl.WindowNs)
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
func (m *Throttle[S, L]) capReached() bool {
	if m.makes("degraded-cap-off-by-one") {
		return m.DegradedWrites > m.Cfg.Breaker.DegradedWriteLimit
	}
	return m.DegradedWrites >= m.Cfg.Breaker.DegradedWriteLimit
}

func (m *Throttle[S, L]) Write(addr, now uint64) ThrottleRefusal {
	if m.makes("write-no-recovery") {
		m.Latest = max(m.Latest, now) // the clock moves, but no period ends
		now = m.Latest
	} else {
		now = m.Tick(now)
	}
	white := m.Whitelisted[addr]
	rl := m.LimitOf(addr)
	// The throttles, in the contract's order, each asked only if those
	// before it let the write through: the pause and the degraded cap
	// (whitelisted too), then the rate limit (unless whitelisted).
	// Congestion is not one of them.
	type throttle struct {
		refuses func() bool
		by      ThrottleRefusal
		rate    bool // the address's own rate limit
	}
	pause := throttle{func() bool {
		return m.Current == throttlePaused && !(white && m.makes("whitelist-skips-pause", "whitelist-skips-breaker"))
	}, ThrottleByPause, false}
	capped := throttle{func() bool {
		return m.Current == throttleDegraded && m.capReached() && !(white && m.makes("whitelist-skips-degraded-cap", "whitelist-skips-breaker"))
	}, ThrottleByDegradedLimit, false}
	congestion := throttle{func() bool { return m.congestionRefuses(white, now) }, ThrottleByRateLimit, false}
	rate := throttle{func() bool { return m.rateLimited(addr, now, rl, white) }, ThrottleByRateLimit, true}
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
	if (m.Current == throttleDegraded || m.makes("degraded-counts-always")) && !(white && m.makes("whitelist-not-in-period", "whitelist-uncounted-everywhere")) {
		m.DegradedWrites++
	}
	if !(white && m.makes("whitelist-uncounted", "whitelist-uncounted-everywhere")) {
		m.Writes[addr] = append(m.Writes[addr], now)
	}
	if !(white && m.makes("whitelist-not-in-congestion", "whitelist-uncounted-everywhere")) {
		m.forget(&m.Accepted, now, m.Cfg.Congestion.WindowNs)
		m.Accepted = append(m.Accepted, now)
	}
	return ThrottleAccepted
}

// congestionRefuses is false: congestion is not a gate (but for the
// mistakes that make it one).
func (m *Throttle[S, L]) congestionRefuses(white bool, now uint64) bool {
	c := m.Cfg.Congestion
	switch {
	case m.makes("high-refuses"):
		return m.Level == levelHigh
	case m.makes("high-refuses-unlisted"):
		return !white && m.Level == levelHigh
	case m.makes("congestion-count-refuses"):
		return m.count(m.Accepted, now, c.WindowNs, true) > uint64(c.HighAbove)
	}
	return false
}

// refused: a refused write counts nowhere (rate, whether the rate limit
// refused it).
func (m *Throttle[S, L]) refused(addr, now uint64, rate bool) {
	if rate && m.makes("counts-refused") || m.makes("counts-every-refused") {
		m.Writes[addr] = append(m.Writes[addr], now)
	}
	if m.makes("congestion-counts-every-write") {
		m.Accepted = append(m.Accepted, now)
	}
	if rate && m.Current == throttleDegraded && m.makes("degraded-counts-refused") {
		m.DegradedWrites++
	}
}

// levelAt is the level the accepted writes in the congestion window say.
func (m *Throttle[S, L]) levelAt(now uint64) L {
	c := m.Cfg.Congestion
	m.forget(&m.Accepted, now, c.WindowNs)
	n := m.count(m.Accepted, now, c.WindowNs, true)
	low, high := n < uint64(c.LowBelow), n > uint64(c.HighAbove)
	if m.makes("low-inclusive") {
		low = n <= uint64(c.LowBelow)
	}
	if m.makes("high-inclusive") {
		high = n >= uint64(c.HighAbove)
	}
	switch {
	case low:
		return levelLow
	case high:
		return levelHigh
	}
	return levelNormal
}

// AdjustCongestion: only if the level changed, the global MaxCalls moves, down on
// a change to High, up on a change to Low, not at all on a change to
// NormalLoad, then is clamped; overrides never move.
func (m *Throttle[S, L]) AdjustCongestion(now uint64) L {
	now = m.Tick(now)
	level, from := m.levelAt(now), m.Level
	changed := level != from
	if !changed && !m.makes("moves-without-change") || m.makes("moves-only-from-normal") && from != levelNormal {
		m.Level = level
		return level
	}
	m.Level = level
	mv := moveStay
	switch {
	case m.makes("steps-by-direction") && level > from:
		mv = moveDown // up a level reduces, down a level raises
	case m.makes("steps-by-direction") && level < from:
		mv = moveUp
	case level == levelHigh:
		mv = moveDown
	case level == levelLow:
		mv = moveUp
	}
	old := m.MaxCalls
	m.MaxCalls = m.stepLimit(m.MaxCalls, mv)
	if m.makes("override-moved-by-congestion") {
		for a, o := range m.Overrides {
			o.MaxCalls = m.stepLimit(o.MaxCalls, mv)
			m.Overrides[a] = o
		}
	}
	if m.makes("global-change-resets-history") && m.MaxCalls != old {
		for a := range m.Writes {
			if _, ok := m.Overrides[a]; !ok {
				m.Writes[a] = nil
			}
		}
	}
	return level
}

// congestionMove is how a level change moves the global MaxCalls.
type congestionMove int

const (
	moveStay congestionMove = iota // a change to NormalLoad: only the clamp
	moveDown                       // to High: by ReduceBps
	moveUp                         // to Low: by IncreaseBps
)

var (
	throttleTwo32 = new(big.Int).Lsh(big.NewInt(1), 32)
	throttleBps1  = big.NewInt(10_000)
)

// stepLimit is x moved down by x*ReduceBps/10000, or up by
// x*IncreaseBps/10000, or not at all, exactly, rounded down, then clamped
// into [MinMaxCalls, MaxMaxCalls].
func (m *Throttle[S, L]) stepLimit(x uint32, mv congestionMove) uint32 {
	c := m.Cfg.Congestion
	bps := map[congestionMove]uint32{moveStay: 0, moveDown: c.ReduceBps, moveUp: c.IncreaseBps}[mv]
	v := new(big.Int).SetUint64(uint64(x))
	p := new(big.Int).Mul(v, new(big.Int).SetUint64(uint64(bps)))
	if m.makes("step-in-32-bits") {
		p.Mod(p, throttleTwo32)
	}
	d := p.Quo(p, throttleBps1)
	switch {
	case mv == moveDown && m.makes("reduce-rounds-result"): // x*(10000-bps)/10000
		v.Mul(v, new(big.Int).SetUint64(uint64(10_000-bps)))
		v.Quo(v, throttleBps1)
	case mv == moveDown:
		v.Sub(v, d)
	default:
		v.Add(v, d)
	}
	if m.makes("step-in-32-bits", "narrows-before-clamp", "no-clamp") {
		v.Mod(v, throttleTwo32)
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

// Status is the picture after automatic recovery at now; Level and
// MaxCalls as the last AdjustCongestion left them.
func (m *Throttle[S, L]) Status(now uint64) ThrottleStatus[S, L] {
	switch {
	case m.makes("status-no-clock"):
	case m.makes("status-no-recovery"):
		m.Latest = max(m.Latest, now)
	default:
		m.Tick(now)
	}
	s := ThrottleStatus[S, L]{
		State: m.Current, RecoverAtNs: m.RecoverAt,
		DegradedWriteLimit: m.Cfg.Breaker.DegradedWriteLimit, DegradedWrites: m.DegradedWrites,
		MaxCalls: m.MaxCalls, WindowNs: m.Cfg.Rate.WindowNs, Level: m.Level, Congestion: m.Cfg.Congestion,
	}
	if m.makes("status-live-level") {
		s.Level = m.levelAt(m.Latest)
	}
	if m.makes("status-reports-configured-max") {
		s.MaxCalls = m.Cfg.Rate.MaxCalls
	}
	return s
}
