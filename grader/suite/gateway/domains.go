package gateway

import (
	"fmt"
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
	ownClass       float64               // chance that a session reopens in its own class (another is a reload of it)
	sticky         float64               // chance that a call goes to the session of the call before (floods last)
	reloadClosed   float64               // chance of a reload, beside reload's, while a session is closed
	// reopenAfterReload: chance that the call after a reload reopens a
	// closed session.
	reopenAfterReload float64
	// backAfterClock: chance of a step back, beside back's, right after a
	// call that only moved the clock (a failed Open, an Admit on a session
	// that is not open, a heartbeat).
	backAfterClock float64
	// swarm: each script first draws which of the domain's features it
	// uses (see swarmed).
	swarm bool
	// reloadConfig, if set, draws a Reload's config with the model in
	// view; else it is config's.
	reloadConfig func(d domain, r *rand.Rand, m *model) Config
	rules        rules
	maxOps       int
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
	// backAfterReload: a call steps back only right after a Reload that
	// fails (whose clock it must leave alone).
	backAfterReload bool
	// disconnects: the setup's floods disconnect (DisconnectAfterNs is
	// set), so that a shrunk script never needs a reload to set it.
	disconnects bool
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
	if !d.configOK(s.Setup.Cfg) || d.rules.moderate && s.Setup.Start > 1<<50 || d.rules.disconnects && s.Setup.Cfg.DisconnectAfterNs == 0 {
		return -1
	}
	opens := 0
	var failed []bool // with backAfterReload, whether each call is a Reload that fails
	if d.rules.backAfterReload {
		failed = failedReloads(s)
	}
	for i, o := range s.Ops {
		switch {
		case o.Back > 0 && !d.back.Allowed(),
			o.Back > 0 && d.rules.backAfterReload && (i == 0 || !failed[i-1]),
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

// failedReloads reports, for each call of s, whether it is a Reload that
// fails.
func failedReloads(s script) []bool {
	m := newModel(s.Setup.Cfg, s.Setup.Start)
	out := make([]bool, len(s.Ops))
	i := 0
	for o, now := range check.Times(s.Setup.Start, s.Ops) {
		switch o.Call {
		case openCall:
			m.open(o.Session, o.Class, now)
		case reloadCall:
			out[i] = m.reload(o.Cfg, now)
		default:
			m.admit(o.Session, o.Kind, now)
		}
		i++
	}
	return out
}

// Gen opens the sessions, then draws calls with the model's state in
// view, and keeps the longest valid prefix.
func (d domain) Gen(r *rand.Rand, size int) script {
	if d.swarm {
		d = d.swarmed(r)
	}
	st := setup{Cfg: check.DrawUntil(r, d.config, d.configOK), Start: d.start(r)}
	m, s := newModel(st.Cfg, st.Start), check.NewDraft[setup, op](st, st.Start)
	// What the call before did: only move the clock, or fail to reload.
	clockOnly, failedReload := false, false
	add := func(o op) {
		now := s.Add(o)
		clockOnly, failedReload = false, false
		switch o.Call {
		case openCall:
			clockOnly = m.open(o.Session, o.Class, now)
		case reloadCall:
			failedReload = m.reload(o.Cfg, now)
		default:
			sess := m.Sessions[o.Session]
			clockOnly = sess == nil || !sess.Open || o.Kind == Heartbeat
			m.admit(o.Session, o.Kind, now)
		}
	}
	classes := classNames(st.Cfg)
	for _, id := range d.sessions[:len(d.sessions)-1] { // the last one is never opened
		add(op{Call: openCall, Session: id, Class: check.Pick(r, classes...)})
	}
	last := d.sessions[0]
	for range check.Ops(r, size, 1, d.maxOps) {
		o := op{Call: admitCall, Session: check.Pick(r, d.sessions...), Kind: check.Pick(r, d.kinds...), When: check.When{Wait: d.wait(r, m)}}
		if check.Chance(r, d.sticky) {
			o.Session = last
		}
		afterReload := len(s.Ops) > 0 && s.Ops[len(s.Ops)-1].Call == reloadCall
		closedIDs := closedSessions(m)
		switch {
		case afterReload && len(closedIDs) > 0 && check.Chance(r, d.reopenAfterReload):
			// A closed session, its class maybe gone or changed.
			o.Call, o.Session, o.Class = openCall, check.Pick(r, closedIDs...), check.Pick(r, classNames(m.Cfg)...)
			if c := m.Sessions[o.Session].Class; check.Chance(r, 0.7) && m.Cfg.Classes[c] != (Class{}) {
				o.Class = c
			}
		case d.rules.reopen && (check.Chance(r, d.reopen) || closed(m, o.Session) && check.Chance(r, 0.5)):
			o.Call, o.Class = openCall, openClass(r, m)
			if s := m.Sessions[o.Session]; s != nil && check.Chance(r, d.ownClass) {
				o.Class = s.Class
			}
		case d.rules.reload && (check.Chance(r, d.reload) || anyClosed(m) && check.Chance(r, d.reloadClosed)):
			o.Call, o.Session = reloadCall, 0
			if d.reloadConfig != nil {
				o.Cfg = d.reloadConfig(d, r, m)
			} else {
				o.Cfg = d.config(r)
			}
			if check.Chance(r, 0.15) {
				o.Cfg = invalid(r, o.Cfg)
			}
		}
		if o.Call != reloadCall {
			last = o.Session
		}
		if !d.rules.backAfterReload || failedReload {
			back, ok := d.back.Draw(r, st, s.Latest)
			if !ok && clockOnly && d.back.Allowed() && check.Chance(r, d.backAfterClock) {
				back, ok = d.back.By(r, st, s.Latest), true
			}
			if ok {
				o.Wait, o.Back = 0, back
			}
		}
		add(o)
	}
	return check.ValidPrefix(d, s.Script)
}

// swarmed returns d with some of its features left out, drawn for one
// script (swarm testing): a script that sends no cancels, or reloads
// nothing, or never escalates, goes deeper into what it does use. Each
// kind of message is kept three times in five (one at least), reloads,
// reopenings and escalation times half the time, and calls stay with
// their session's flood more or less.
func (d domain) swarmed(r *rand.Rand) domain {
	var kinds []Kind
	for _, k := range d.kinds {
		if check.Chance(r, 0.6) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		kinds = append(kinds, check.Pick(r, d.kinds...))
	}
	d.kinds = kinds
	if check.Chance(r, 0.5) {
		d.reload = 0
	}
	if check.Chance(r, 0.5) {
		d.reopen = 0
	}
	if config := d.config; check.Chance(r, 0.5) {
		d.config = func(r *rand.Rand) Config {
			cfg := config(r)
			cfg.SilenceAfterNs, cfg.DisconnectAfterNs = 0, 0
			return cfg
		}
	}
	d.sticky = check.Pick(r, 0, 0.3, 0.7)
	return d
}

// base is what every property of the suite shares: how its scripts
// shrink and how their failures are explained.
var base = check.Property[setup, op]{ShrinkSetup: shrinkSetup, ShrinkOp: shrinkOp, Merge: check.MergeWaits[op]}

func (d domain) property(impl Impl) check.Property[setup, op] {
	p := d.aim.Property(d, base, func(s script) check.Trace { return replay(impl, s) })
	explain := p.Explain
	p.Explain = func(s script, t check.Trace, why string) string {
		if explain != nil {
			why = explain(s, t, why)
		}
		return explainError(impl, s, t, why)
	}
	return p
}

// explainError quotes, for a script whose last call returned an error
// where none was wanted (written "an error" in the trace, see run), the
// error's text.
func explainError(impl Impl, s script, t check.Trace, why string) string {
	if last := t.Last(); last < 0 || t.Steps[last].Got != "an error" || t.Steps[last].Want != "nil" {
		return why
	}
	if _, text := run(impl, script{Setup: s.Setup, Ops: s.Ops[:t.Last()+1]}); text != "" {
		return fmt.Sprintf("Your error was %q. %s", clip(text), why)
	}
	return why
}

// openClass draws the class of an Open: one of the config's, or now and
// then one it does not have (an Open that fails).
func openClass(r *rand.Rand, m *model) string {
	if check.Chance(r, 0.15) {
		for _, c := range []string{"market-maker", "retail-9"} {
			if _, ok := m.Cfg.Classes[c]; !ok {
				return c
			}
		}
	}
	return check.Pick(r, classNames(m.Cfg)...)
}

// closed reports whether session id was opened and is now closed.
func closed(m *model, id uint64) bool {
	s := m.Sessions[id]
	return s != nil && !s.Open
}

// anyClosed reports whether a session was opened and is now closed.
func anyClosed(m *model) bool { return len(closedSessions(m)) > 0 }

// closedSessions are the ids of the sessions that were opened and are now
// closed, in order.
func closedSessions(m *model) []uint64 {
	var out []uint64
	for _, id := range slices.Sorted(maps.Keys(m.Sessions)) {
		if !m.Sessions[id].Open {
			out = append(out, id)
		}
	}
	return out
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

// invalid breaks cfg in one of the contract's ways: no class, an Orders
// budget not limited or with no rate, a limited Cancels budget below
// Orders' capacity or rate or with no rate, escalation times out of
// order or equal.
func invalid(r *rand.Rand, cfg Config) Config {
	out := Config{Classes: maps.Clone(cfg.Classes), SilenceAfterNs: cfg.SilenceAfterNs, DisconnectAfterNs: cfg.DisconnectAfterNs}
	k := out.Classes["regular"]
	switch r.Intn(7) {
	case 0:
		out.Classes = nil
	case 1:
		k.Orders.Capacity = 0
	case 2:
		k.Orders.RatePerSec = 0
	case 3:
		k.Cancels = Budget{Capacity: max(k.Orders.Capacity, 2) - 1, RatePerSec: k.Orders.RatePerSec}
	case 4:
		k.Cancels = Budget{Capacity: k.Orders.Capacity, RatePerSec: max(k.Orders.RatePerSec, 2) - 1}
	case 5:
		k.Cancels = Budget{Capacity: k.Orders.Capacity + 1, RatePerSec: 0}
	default:
		out.SilenceAfterNs = check.Pick[uint64](r, 2*tick, tick)
		out.DisconnectAfterNs = tick
	}
	if out.Classes != nil {
		out.Classes["regular"] = k
	}
	return out
}

// wholeConfig draws classes "regular" and, often, "market-maker" (now and
// then with the same budgets as regular), with small capacities and rates
// of 10 to 100 a second (dividing 10^9);
// cancels limited or not; escalation times of a few ticks, shorter than a
// token's interval, if escalate.
func wholeConfig(escalate bool, unlimitedCancels float64) func(r *rand.Rand) Config {
	return func(r *rand.Rand) Config {
		class := func() Class {
			o := Budget{Capacity: check.Between(r, 1, 4), RatePerSec: check.Pick[uint64](r, 10, 20, 50, 100, 100)}
			c := Budget{}
			if !check.Chance(r, unlimitedCancels) {
				c = Budget{Capacity: o.Capacity + check.Between(r, 0, 3), RatePerSec: o.RatePerSec * check.Between(r, 1, 2)}
			}
			return Class{Orders: o, Cancels: c}
		}
		cfg := Config{Classes: map[string]Class{"regular": class()}}
		if check.Chance(r, 0.5) {
			cfg.Classes["market-maker"] = class()
			if check.Chance(r, 0.2) { // twins: a session reopened in the other class must still change class
				cfg.Classes["market-maker"] = cfg.Classes["regular"]
			}
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

// disconnecting draws configs with draw, then, with probability p, gives
// them floods that disconnect within a few ticks and a second class, so
// that sessions close often and are opened again, in their class or the
// other.
func disconnecting(draw func(r *rand.Rand) Config, p float64) func(r *rand.Rand) Config {
	return func(r *rand.Rand) Config {
		cfg := draw(r)
		if !check.Chance(r, p) {
			return cfg
		}
		cfg.DisconnectAfterNs = check.Pick[uint64](r, 2*tick, 5*tick)
		if cfg.SilenceAfterNs >= cfg.DisconnectAfterNs {
			cfg.SilenceAfterNs = tick
		}
		if _, ok := cfg.Classes["market-maker"]; !ok {
			cfg.Classes["market-maker"] = draw(r).Classes["regular"]
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

// orders are the kinds of the domains whose corner needs no cancels and
// no heartbeats (those have domains of their own).
var orders = []Kind{NewOrder, Modify}

// cancelDomain: cancels against drained order budgets and orders against
// drained cancel budgets, Cancels limited or not.
var cancelDomain = domain{
	aim:    aim{Check: "cancel-budget"},
	config: wholeConfig(false, 0.4), start: smallStart, wait: ticks,
	kinds: []Kind{NewOrder, Modify, Cancel, Cancel}, sessions: []uint64{1, 2},
	rules: rules{divisor: true, moderate: true}, maxOps: 30,
}

// heartbeatDomain: heartbeats inside floods, on sessions open, closed
// and never opened.
var heartbeatDomain = domain{
	aim:    aim{Check: "heartbeat"},
	config: wholeConfig(true, 0.5), start: smallStart, wait: ticks,
	kinds: []Kind{NewOrder, Heartbeat, Heartbeat}, sessions: []uint64{1, 2, 3},
	rules: rules{divisor: true, escalation: true, moderate: true}, maxOps: 30,
}

// escalationDomain: floods crossing the silence and disconnect ages,
// ended by accepted orders and cancels, their escalation times changed by
// reloads under way.
var escalationDomain = domain{
	aim:    aim{Check: "escalation"},
	config: wholeConfig(true, 0.3), start: smallStart, wait: ticks,
	kinds: []Kind{NewOrder, Modify, Cancel}, sessions: []uint64{1, 2}, reload: 0.1, sticky: 0.3,
	rules: rules{divisor: true, escalation: true, reload: true, moderate: true}, maxOps: 30,
}

// reconnectDomain: sessions disconnected and opened again, in their class
// or the other, or in one the config lacks.
var reconnectDomain = domain{
	aim:    aim{Check: "reconnect"},
	config: disconnecting(wholeConfig(false, 0.3), 1), start: smallStart,
	wait:  func(r *rand.Rand, _ *model) uint64 { return tick * check.Pick[uint64](r, 0, 0, 0, 1, 2, 3, 10, 50) },
	kinds: orders, sessions: []uint64{1, 2}, reopen: 0.2, ownClass: 0.5, sticky: 0.5,
	rules: rules{divisor: true, escalation: true, reopen: true, moderate: true, disconnects: true}, maxOps: 30,
}

// reloadDomain: reloads, now and then invalid or without the class of an
// open session, between floods, cancels (a budget that was unlimited may
// become limited), disconnects and reopenings in any class (a closed
// session's class may be gone); a call right after a reload may step back
// (a failed reload leaves the clock alone).
var reloadDomain = domain{
	aim:    aim{Check: "reload"},
	config: disconnecting(wholeConfig(true, 0.4), 1), start: smallStart, wait: ticks,
	kinds: []Kind{NewOrder, NewOrder, Modify, Cancel}, sessions: []uint64{1, 2}, reload: 0.15, reloadClosed: 0.3, reopen: 0.1, ownClass: 0.5, sticky: 0.6, reopenAfterReload: 0.5,
	reloadConfig: followSessions,
	back:         check.StepBack[setup]{Chance: 0.5, By: backTicks},
	rules:        rules{divisor: true, escalation: true, reload: true, reopen: true, moderate: true, backAfterReload: true, disconnects: true}, maxOps: 60,
}

// followSessions draws a reload's config whose classes follow the
// sessions: a class whose sessions are all closed is dropped half the
// time (a closed session's class is gone), one with an open session is
// there about two times in three (else the reload fails). Two reloads in
// three keep the escalation times in force.
func followSessions(d domain, r *rand.Rand, m *model) Config {
	cfg := d.config(r)
	if check.Chance(r, 2.0/3) {
		cfg.SilenceAfterNs, cfg.DisconnectAfterNs = m.Cfg.SilenceAfterNs, m.Cfg.DisconnectAfterNs
	}
	spare := d.config(r).Classes["regular"]
	for _, c := range []string{"market-maker", "regular"} {
		open, closed := false, false
		for _, id := range slices.Sorted(maps.Keys(m.Sessions)) {
			if s := m.Sessions[id]; s.Class == c {
				open, closed = open || s.Open, closed || !s.Open
			}
		}
		_, there := cfg.Classes[c]
		switch {
		case open && !there && check.Chance(r, 0.75):
			cfg.Classes[c] = spare
		case closed && !open && there && len(cfg.Classes) > 1 && check.Chance(r, 0.5),
			open && there && len(cfg.Classes) > 1 && check.Chance(r, 0.15):
			delete(cfg.Classes, c)
		}
	}
	return cfg
}

// backTicks steps back by 1, 2, 5 or 100 ticks, or by 1 ns.
func backTicks(r *rand.Rand, _ setup, _ uint64) uint64 {
	return check.Pick(r, 1, check.Pick(r, uint64(tick), 2*tick, 5*tick, 100*tick))
}

// backwardDomain: steps back after every kind of call, failed Opens
// (already open, unknown class), Admits on sessions not open and
// heartbeats among them: every call but a failed Reload moves the clock.
var backwardDomain = domain{
	aim:    aim{Check: "backward-time"},
	config: wholeConfig(true, 0.3), start: func(r *rand.Rand) uint64 { return tick * check.Between(r, 0, 1000) },
	wait:  ticks,
	kinds: []Kind{NewOrder, Modify, Heartbeat}, sessions: []uint64{1, 2, 3}, reopen: 0.1,
	back: check.StepBack[setup]{Chance: 0.25, By: backTicks}, backAfterClock: 0.5,
	rules: rules{divisor: true, escalation: true, reopen: true, moderate: true}, maxOps: 30,
}

// retryDomain: rates that do not divide a second, and calls on the
// nanoseconds around the next token, so units are rarely whole.
var retryDomain = domain{
	aim: aim{Check: "retry-after"},
	config: func(r *rand.Rand) Config {
		rate := check.Pick(r, check.NotDividingSecond...)
		o := Budget{Capacity: check.Between(r, 1, 3), RatePerSec: rate}
		c := Budget{}
		if check.Chance(r, 0.5) {
			c = Budget{Capacity: o.Capacity, RatePerSec: check.Pick(r, rate, rate+check.Between(r, 1, 1000))}
		}
		return Config{Classes: map[string]Class{"regular": {Orders: o, Cancels: c}}}
	},
	start: func(r *rand.Rand) uint64 { return check.Between(r, 0, 1e12) },
	wait: func(r *rand.Rand, m *model) uint64 {
		var rate uint64 = 1
		var need *big.Int
		for _, s := range m.Sessions {
			rate = s.Orders.Rate
			need = new(big.Int).Sub(unitsPerToken, s.Orders.Units)
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
	aim: aim{Check: "overflow"},
	config: func(r *rand.Rand) Config {
		o := Budget{Capacity: check.Pick[uint64](r, 1, 10, 1<<34, 1e12, 1<<62, math.MaxUint64), RatePerSec: check.Pick(r, hugeRates...)}
		c := Budget{}
		if check.Chance(r, 0.5) {
			c = Budget{Capacity: check.Pick[uint64](r, o.Capacity, math.MaxUint64), RatePerSec: check.Pick(r, o.RatePerSec, hugeRates[len(hugeRates)-1])}
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
		rate := m.Cfg.Classes["regular"].Orders.RatePerSec
		return check.Pick[uint64](r, 0, 0, 1, day, 365*day, math.MaxUint64/3, math.MaxUint64, r.Uint64(), wrapWait(r, rate), wrapWait(r, rate))
	},
	kinds: orders, sessions: []uint64{math.MaxUint64, 1 << 63, 0},
	rules: rules{escalation: true}, maxOps: 12,
}

// exactDomain: ordinary traffic with everything in it but steps back and
// huge values: fractional refills, escalation, heartbeats, reconnects and
// reloads, each script with some of them only (swarm testing).
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
	kinds: allKinds, sessions: []uint64{1, 2, 3}, reload: 0.1, reopen: 0.1, ownClass: 0.5, swarm: true,
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

// clip cuts an error's text to 200 bytes, as the report writes errors.
func clip(text string) string {
	if len(text) > 200 {
		return text[:200] + "…"
	}
	return text
}
