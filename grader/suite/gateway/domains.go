package gateway

import (
	"maps"
	"math"
	"math/big"
	"math/bits"
	"math/rand"
	"slices"

	"ratelab/grader/check"
)

// domain is a check.Domain of the gateway's scripts.
type domain struct {
	aim                              // the check it is for
	config func(r *rand.Rand) Config // a valid config of the corner
	start  func(r *rand.Rand) uint64
	wait   func(r *rand.Rand, m *model) uint64
	// kinds are Admit's kinds, drawn uniformly.
	kinds []Kind
	// Chances of a call other than Admit.
	reopen, reload float64
	back           check.StepBack[setup] // steps back in time; none if zero
	sessions       []uint64              // the session ids used
	sameClass      bool                  // sessions reopen in their own class (another is a reload)
	rules          rules
	maxOps         int
}

type aim = check.Aim[setup, op]

// rules restrict the scripts of a domain; see Valid.
type rules struct {
	// divisor: every rate divides 10^9, so the units a budget holds are
	// always a multiple of its rate and every retry-after is a whole
	// division: rounding it is retry-after's business.
	divisor    bool
	escalation bool // escalation times may be set
	reload     bool // Reload calls allowed
	reopen     bool // Open calls after the first ones allowed
	moderate   bool // capacities, rates and times far from 2^64
}

// tick is the time unit of the escalation domains: 1 ms. Their rates are
// at most 100 tokens a second, so a flood can grow ticks old before the
// next token ends it.
const tick = 1_000_000

// configOK reports whether cfg keeps to d's rules.
func (d domain) configOK(cfg Config) bool {
	if problems(cfg) != nil || !d.rules.escalation && (cfg.SilenceAfterNs > 0 || cfg.DisconnectAfterNs > 0) {
		return false
	}
	for _, k := range cfg.Classes {
		for _, b := range []Budget{k.Orders, k.Cancels} {
			if d.rules.divisor && b.RatePerSec > 0 && 1_000_000_000%b.RatePerSec != 0 {
				return false
			}
			if d.rules.moderate && (b.Capacity > 1000 || b.RatePerSec > 1e9) {
				return false
			}
		}
	}
	return true
}

// Valid returns how many leading calls of s keep to d's rules, or -1 if
// its setup does not.
func (d domain) Valid(s script) int {
	if !d.configOK(s.Setup.Cfg) || d.rules.moderate && s.Setup.Start > 1<<50 {
		return -1
	}
	opens := 0
	for i, o := range s.Ops {
		switch {
		case o.Back > 0 && !d.back.Allowed(),
			d.rules.moderate && o.Wait > 1<<40,
			o.Call == reloadCall && !d.rules.reload,
			o.Call == reloadCall && problems(o.Cfg) == nil && !d.configOK(o.Cfg),
			o.Call == openCall && !d.rules.reopen && opens != i,
			o.Call == admitCall && !slices.Contains(d.kinds, o.Kind),
			!slices.Contains(d.sessions, o.Session) && o.Call != reloadCall:
			return i
		}
		if o.Call == openCall {
			opens++
		}
	}
	return len(s.Ops)
}

// Gen opens the sessions, then draws calls with the model's state in
// view, and keeps the longest valid prefix.
func (d domain) Gen(r *rand.Rand, size int) script {
	st := setup{Cfg: check.DrawUntil(r, d.config, d.configOK), Start: d.start(r)}
	m, s := newModel(st.Cfg, st.Start), check.NewDraft[setup, op](st, st.Start)
	add := func(o op) {
		now := s.Add(o)
		switch o.Call {
		case openCall:
			m.open(o.Session, o.Class, now)
		case reloadCall:
			m.reload(o.Cfg, now)
		default:
			m.admit(o.Session, o.Kind, now)
		}
	}
	classes := classNames(st.Cfg)
	for _, id := range d.sessions[:len(d.sessions)-1] { // the last one is never opened
		add(op{Call: openCall, Session: id, Class: check.Pick(r, classes...)})
	}
	for range check.Ops(r, size, 1, d.maxOps) {
		o := op{Call: admitCall, Session: check.Pick(r, d.sessions...), Kind: check.Pick(r, d.kinds...), When: check.When{Wait: d.wait(r, m)}}
		switch {
		case d.rules.reopen && (check.Chance(r, d.reopen) || closed(m, o.Session) && check.Chance(r, 0.5)):
			o.Call, o.Class = openCall, check.Pick(r, classNames(m.cfg)...)
			if s := m.sessions[o.Session]; s != nil && d.sameClass {
				o.Class = s.class
			}
		case d.rules.reload && check.Chance(r, d.reload):
			o.Call, o.Session = reloadCall, 0
			o.Cfg = d.config(r)
			if check.Chance(r, 0.15) {
				o.Cfg = invalid(r, o.Cfg)
			}
		}
		if back, ok := d.back.Draw(r, st, s.Latest); ok {
			o.Wait, o.Back = 0, back
		}
		add(o)
	}
	return check.ValidPrefix(d, s.Script)
}

// base is what every property of the suite shares: how its scripts
// shrink and how their failures are explained.
var base = check.Property[setup, op]{ShrinkSetup: shrinkSetup, ShrinkOp: shrinkOp, Merge: check.MergeWaits[op]}

func (d domain) property(impl Impl) check.Property[setup, op] {
	return d.aim.Property(d, base, func(s script) check.Trace { return replay(impl, s) })
}

// closed reports whether session id was opened and is now closed.
func closed(m *model, id uint64) bool {
	s := m.sessions[id]
	return s != nil && !s.open
}

func classNames(cfg Config) []string {
	var out []string
	for n := range cfg.Classes {
		out = append(out, n)
	}
	slices.Sort(out)
	if len(out) == 0 {
		out = append(out, "regular")
	}
	return out
}

// invalid breaks cfg in one of the contract's ways.
func invalid(r *rand.Rand, cfg Config) Config {
	out := Config{Classes: map[string]Class{}, SilenceAfterNs: cfg.SilenceAfterNs, DisconnectAfterNs: cfg.DisconnectAfterNs}
	for n, k := range cfg.Classes {
		out.Classes[n] = k
	}
	switch r.Intn(3) {
	case 0:
		out.Classes = nil
	case 1:
		k := out.Classes["regular"]
		k.Orders.Capacity = 0
		out.Classes["regular"] = k
	default:
		out.SilenceAfterNs, out.DisconnectAfterNs = 2*tick, tick
	}
	return out
}

// wholeConfig draws classes "regular" and, often, "market-maker", with
// small capacities and rates of 10 to 100 a second (dividing 10^9);
// cancels limited or not; escalation times of a few ticks, shorter than a
// token's interval, if escalate.
func wholeConfig(escalate bool, unlimitedCancels float64) func(r *rand.Rand) Config {
	return func(r *rand.Rand) Config {
		class := func() Class {
			o := Budget{check.Between(r, 1, 4), check.Pick[uint64](r, 10, 20, 50, 100, 100)}
			c := Budget{}
			if !check.Chance(r, unlimitedCancels) {
				c = Budget{o.Capacity + check.Between(r, 0, 3), o.RatePerSec * check.Between(r, 1, 2)}
			}
			return Class{Orders: o, Cancels: c}
		}
		cfg := Config{Classes: map[string]Class{"regular": class()}}
		if check.Chance(r, 0.5) {
			cfg.Classes["market-maker"] = class()
		}
		if escalate {
			cfg.SilenceAfterNs = check.Pick[uint64](r, 0, tick, 2*tick, 4*tick)
			cfg.DisconnectAfterNs = check.Pick[uint64](r, 0, 5*tick, 8*tick)
			if cfg.DisconnectAfterNs == 0 && cfg.SilenceAfterNs == 0 {
				cfg.SilenceAfterNs = tick
			}
		}
		return cfg
	}
}

// ticks waits a few ticks, often none (bursts that drain the buckets),
// sometimes a token's interval or two.
func ticks(r *rand.Rand, _ *model) uint64 {
	return tick * check.Pick[uint64](r, 0, 0, 0, 1, 1, 2, 3, 5, 10, 20)
}

func smallStart(r *rand.Rand) uint64 { return tick * check.Pick(r, 0, 1, check.Between(r, 0, 1e6)) }

var allKinds = []Kind{NewOrder, Modify, Cancel, Heartbeat}

// orders are the kinds of the domains that leave cancels to
// cancel-budget's (a cancel charged to the wrong budget would show
// everywhere) and heartbeats to heartbeat's.
var orders = []Kind{NewOrder, Modify}

var cancelDomain = domain{
	aim:    aim{Check: "cancel-budget", Trap: cancelTrap},
	config: wholeConfig(false, 0.4), start: smallStart, wait: ticks,
	kinds: []Kind{NewOrder, Modify, Cancel, Cancel}, sessions: []uint64{1, 2},
	rules: rules{divisor: true, moderate: true}, maxOps: 30,
}

var heartbeatDomain = domain{
	aim:    aim{Check: "heartbeat", Trap: heartbeatTrap},
	config: wholeConfig(true, 0.5), start: smallStart, wait: ticks,
	kinds: []Kind{NewOrder, Heartbeat, Heartbeat}, sessions: []uint64{1, 2, 3},
	rules: rules{divisor: true, escalation: true, moderate: true}, maxOps: 30,
}

var escalationDomain = domain{
	aim:    aim{Check: "escalation", Trap: escalationTrap},
	config: wholeConfig(true, 0.3), start: smallStart, wait: ticks,
	kinds: orders, sessions: []uint64{1, 2}, reload: 0.1,
	rules: rules{divisor: true, escalation: true, reload: true, moderate: true}, maxOps: 30,
}

var reconnectDomain = domain{
	aim: aim{Check: "reconnect", Trap: reconnectTrap},
	// Floods that reach the disconnect age within a tick or two, so that
	// sessions close often and are opened again.
	config: func(r *rand.Rand) Config {
		cfg := wholeConfig(false, 0.3)(r)
		cfg.DisconnectAfterNs = check.Pick[uint64](r, 2*tick, 5*tick)
		return cfg
	},
	start: smallStart,
	wait:  func(r *rand.Rand, _ *model) uint64 { return tick * check.Pick[uint64](r, 0, 0, 0, 1, 2, 3, 10, 50) },
	kinds: orders, sessions: []uint64{1, 2}, reopen: 0.2, sameClass: true,
	rules: rules{divisor: true, escalation: true, reopen: true, moderate: true}, maxOps: 30,
}

var reloadDomain = domain{
	aim:    aim{Check: "reload", Trap: reloadTrap},
	config: wholeConfig(true, 0.3), start: smallStart, wait: ticks,
	kinds: orders, sessions: []uint64{1, 2}, reload: 0.2,
	rules: rules{divisor: true, escalation: true, reload: true, moderate: true}, maxOps: 30,
}

// backTicks steps back by 1, 2, 5 or 100 ticks, or by 1 ns.
func backTicks(r *rand.Rand, _ setup, _ uint64) uint64 {
	return check.Pick(r, 1, check.Pick(r, uint64(tick), 2*tick, 5*tick, 100*tick))
}

var backwardDomain = domain{
	aim:    aim{Check: "backward-time", Trap: check.BackwardTrap[setup, op]},
	config: wholeConfig(true, 0.3), start: func(r *rand.Rand) uint64 { return tick * check.Between(r, 0, 1000) },
	wait:  ticks,
	kinds: orders, sessions: []uint64{1, 2}, reopen: 0.05,
	back:  check.StepBack[setup]{Chance: 0.25, By: backTicks},
	rules: rules{divisor: true, escalation: true, reopen: true, moderate: true}, maxOps: 30,
}

// retryDomain: rates that do not divide a second, and calls on the
// nanoseconds around the next token, so units are rarely whole.
var retryDomain = domain{
	aim: aim{Check: "retry-after", Trap: retryTrap},
	config: func(r *rand.Rand) Config {
		rate := check.Pick(r, check.NotDividingSecond...)
		o := Budget{check.Between(r, 1, 3), rate}
		c := Budget{}
		if check.Chance(r, 0.5) {
			c = Budget{o.Capacity, check.Pick(r, rate, rate+check.Between(r, 1, 1000))}
		}
		return Config{Classes: map[string]Class{"regular": {Orders: o, Cancels: c}}}
	},
	start: func(r *rand.Rand) uint64 { return check.Between(r, 0, 1e12) },
	wait: func(r *rand.Rand, m *model) uint64 {
		var rate uint64 = 1
		var need *big.Int
		for _, s := range m.sessions {
			rate = s.orders.rate.Uint64()
			need = new(big.Int).Sub(unitsPerToken, s.orders.units)
		}
		i := 1_000_000_000 / rate
		if need != nil && need.Sign() > 0 {
			n := new(big.Int).Quo(need, big.NewInt(int64(rate))).Uint64()
			return check.Pick(r, 0, n, n+1, max(n, 1)-1)
		}
		return check.Pick(r, 0, 0, 1, check.Between(r, 1, i), i/3)
	},
	// No cancels: how a cancel is charged is cancel-budget's business.
	kinds: []Kind{NewOrder, Modify}, sessions: []uint64{1, 2},
	rules: rules{moderate: true}, maxOps: 20,
}

var hugeRates = []uint64{1_000_000_000, 1e12, 1e18, 18e18, math.MaxUint64 - math.MaxUint64%1_000_000_000}

// overflowDomain: huge budgets, huge escalation times, times next to the
// end, huge session ids; every rate a multiple of 10^9, so every refill is
// whole tokens.
var overflowDomain = domain{
	aim: aim{Check: "overflow", Trap: overflowTrap},
	config: func(r *rand.Rand) Config {
		o := Budget{check.Pick[uint64](r, 1, 10, 1<<34, 1e12, 1<<62, math.MaxUint64), check.Pick(r, hugeRates...)}
		c := Budget{}
		if check.Chance(r, 0.5) {
			c = Budget{check.Pick[uint64](r, o.Capacity, math.MaxUint64), check.Pick(r, o.RatePerSec, hugeRates[len(hugeRates)-1])}
		}
		cfg := Config{Classes: map[string]Class{"regular": {Orders: o, Cancels: c}}}
		cfg.SilenceAfterNs = check.Pick[uint64](r, 0, 1, math.MaxUint64-1, 1<<63)
		cfg.DisconnectAfterNs = check.Pick[uint64](r, 0, math.MaxUint64)
		return cfg
	},
	start: func(r *rand.Rand) uint64 {
		return check.Pick[uint64](r, 0, 1, math.MaxUint64/2, math.MaxUint64-check.Between(r, 0, 1e9), math.MaxUint64)
	},
	wait: func(r *rand.Rand, m *model) uint64 {
		const day = 86_400_000_000_000
		rate := m.cfg.Classes["regular"].Orders.RatePerSec
		return check.Pick[uint64](r, 0, 0, 1, day, 365*day, math.MaxUint64/3, math.MaxUint64, r.Uint64(), wrapWait(r, rate), wrapWait(r, rate))
	},
	kinds: orders, sessions: []uint64{math.MaxUint64, 1 << 63, 0},
	rules: rules{}, maxOps: 12,
}

// exactDomain: ordinary traffic with everything in it but steps back and
// huge values: fractional refills, escalation, heartbeats, reconnects and
// reloads.
var exactDomain = domain{
	aim: aim{Check: "exactness"},
	config: func(r *rand.Rand) Config {
		cfg := wholeConfig(true, 0.3)(r)
		// In the classes' order: drawn in the map's order, the same seed
		// would draw other configs.
		for _, n := range slices.Sorted(maps.Keys(cfg.Classes)) {
			k := cfg.Classes[n]
			k.Orders.RatePerSec = check.Pick(r, k.Orders.RatePerSec, check.Pick(r, check.NotDividingSecond[:10]...))
			if k.Cancels.Capacity > 0 {
				k.Cancels.RatePerSec = max(k.Cancels.RatePerSec, k.Orders.RatePerSec)
			}
			cfg.Classes[n] = k
		}
		cfg.SilenceAfterNs += check.Between(r, 0, 3) * check.Between(r, 0, tick)
		if cfg.DisconnectAfterNs > 0 && cfg.DisconnectAfterNs <= cfg.SilenceAfterNs {
			cfg.DisconnectAfterNs = cfg.SilenceAfterNs + 1
		}
		return cfg
	},
	start: smallStart,
	wait: func(r *rand.Rand, m *model) uint64 {
		return check.Pick(r, 0, 0, tick, check.Between(r, 0, 3*tick), check.Between(r, 0, 1000))
	},
	kinds: allKinds, sessions: []uint64{1, 2, 3}, reload: 0.1, reopen: 0.1,
	rules: rules{escalation: true, reload: true, reopen: true, moderate: true}, maxOps: 40,
}

// wrapWait returns an idle time whose product with rate wraps around 2^64
// to a small number (less than a token's 10^9 units when rate's factors of
// two allow): a gateway that multiplies elapsed by the rate in 64 bits
// sees next to nothing earned.
func wrapWait(r *rand.Rand, rate uint64) uint64 {
	if rate == 0 {
		return 0
	}
	tz := bits.TrailingZeros64(rate)
	odd := rate >> tz
	inv := odd // Newton's iteration for the inverse of odd mod 2^64
	for range 6 {
		inv *= 2 - odd*inv
	}
	w := check.Between(r, 1, 1000) * inv // w*rate = k*2^tz mod 2^64
	if tz > 0 {
		w += check.Between(r, 1, 1<<tz-1) << (64 - tz)
	}
	return w
}
