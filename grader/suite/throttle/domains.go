package throttle

import (
	"math"
	"math/rand"
	"slices"

	"ratelab/grader/check"
)

// domain is a check.Domain of the throttle gate's scripts.
type domain struct {
	aim    // the check it is for
	config func(r *rand.Rand) Config
	cfgOK  func(c Config) bool // the corner's rules on a (valid) config; nil: any
	start  func(r *rand.Rand) uint64
	wait   func(r *rand.Rand, m *model) uint64
	// weights of each call; a call of weight 0 is not in the domain.
	weights [nCalls]int
	states  []State  // SetState's states
	addrs   []uint64 // the addresses used
	// crowd: one script in two has, at one point, a Write from each of
	// these addresses at once, so many new ones that a table of
	// addresses grows there (and must keep every state it holds).
	crowd []uint64
	limit func(r *rand.Rand) RateLimit
	back  check.StepBack[setup] // steps back in time; none if zero
	// statusAfter: every AdjustCongestion is followed by a Status, so a
	// wrong global limit shows there before any write it changes.
	statusAfter bool
	// swarm: each script first drops, each with chance 1/3, the calls
	// other than Write it may make, so that a script made of few kinds of
	// calls, where one rule shows alone, is drawn as often as a mixed one.
	swarm  bool
	maxOps int
}

type aim = check.Aim[setup, op]

// maxWait bounds a call's wait, so that times stay far from 2^64.
const maxWait = 1 << 40

func (d domain) configOK(c Config) bool {
	return problems(c) == nil && (d.cfgOK == nil || d.cfgOK(c))
}

// Valid returns how many leading calls of s keep to d's rules, or -1 if
// its setup does not.
func (d domain) Valid(s script) int {
	if !d.configOK(s.Setup.Cfg) || s.Setup.Start > maxWait {
		return -1
	}
	for i, o := range s.Ops {
		addressed := o.Call == writeCall || o.Call == limitCall || o.Call == clearCall || o.Call == whiteCall
		switch {
		case o.Call >= nCalls || d.weights[o.Call] == 0 && !(o.Call == statusCall && d.statusAfter),
			!o.Call.timed() && (o.Wait != 0 || o.Back != 0),
			o.Back > 0 && !d.back.Allowed(),
			o.Wait > maxWait,
			addressed && !slices.Contains(d.addrs, o.Addr) && !slices.Contains(d.crowd, o.Addr),
			o.Call == stateCall && !slices.Contains(d.states, o.State):
			return i
		}
	}
	return len(s.Ops)
}

// Gen draws calls with the model's state in view, and keeps the longest
// valid prefix.
func (d domain) Gen(r *rand.Rand, size int) script {
	st := setup{Cfg: check.DrawUntil(r, d.config, d.configOK), Start: d.start(r)}
	m, s := newModel(st.Cfg, st.Start), check.NewDraft[setup, op](st, st.Start)
	add := func(o op) { m.step(o, s.Add(o)) }
	weights := d.weights
	for c := range weights {
		if d.swarm && call(c) != writeCall && check.Chance(r, 1.0/3) {
			weights[c] = 0
		}
	}
	total := 0
	for _, w := range weights {
		total += w
	}
	n, crowdAt := check.Ops(r, size, 1, d.maxOps), -1
	if len(d.crowd) > 0 && check.Chance(r, 0.5) {
		crowdAt = r.Intn(n)
	}
	for i := range n {
		if i == crowdAt {
			for _, a := range d.crowd {
				add(op{Call: writeCall, Addr: a})
			}
		}
		o := op{Addr: check.Pick(r, d.addrs...)}
		for x := r.Intn(total); ; o.Call++ {
			if x -= weights[o.Call]; x < 0 {
				break
			}
		}
		switch o.Call {
		case stateCall:
			o.State = check.Pick(r, d.states...)
		case limitCall:
			o.Limit = d.limit(r)
		case whiteCall:
			o.On = check.Chance(r, 0.6)
		}
		if o.Call.timed() {
			o.Wait = d.wait(r, m)
			if back, ok := d.back.Draw(r, st, s.Latest); ok {
				o.Wait, o.Back = 0, back
			}
		} else {
			o.Addr = check.Pick(r, d.addrs...)
		}
		add(o)
		if o.Call == adjustCall && d.statusAfter {
			add(op{Call: statusCall})
		}
	}
	return check.ValidPrefix(d, s.Script)
}

// base is what every property of the suite shares: how its scripts
// shrink and how their failures are explained.
var base = check.Property[setup, op]{ShrinkSetup: shrinkSetup, ShrinkOp: shrinkOp, Merge: merge, Explain: explain}

func (d domain) property(impl Impl) check.Property[setup, op] {
	return d.aim.Property(d, base, func(s script) check.Trace { return replay(impl, s) })
}

// weights lists the weight of each call: write, SetState,
// SetIssuerLimit, ClearIssuerLimit, SetWhitelisted, AdjustCongestion,
// Status.
func weights(write, state, limit, clear, white, adjust, status int) [nCalls]int {
	return [nCalls]int{write, state, limit, clear, white, adjust, status}
}

// baseConfig draws a small config: limits of a few writes per 100 to 1,000
// ns, a degraded cap of 0 to 3, congestion over 100 or 300 ns.
func baseConfig(autoRecover float64) func(r *rand.Rand) Config {
	return func(r *rand.Rand) Config {
		low := uint32(check.Between(r, 0, 2))
		c := Config{
			Breaker: BreakerConfig{TTLNs: check.Pick[uint64](r, 100, 300, 1000), DegradedWriteLimit: uint32(check.Between(r, 0, 3)), AutoRecover: check.Chance(r, autoRecover)},
			Rate:    RateLimit{MaxCalls: uint32(check.Between(r, 1, 3)), WindowNs: check.Pick[uint64](r, 100, 200, 1000)},
			Congestion: CongestionConfig{
				WindowNs: check.Pick[uint64](r, 100, 300), LowBelow: low, HighAbove: low + uint32(check.Between(r, 0, 3)),
				ReduceBps: check.Pick[uint32](r, 0, 2500, 5000, 10_000), IncreaseBps: check.Pick[uint32](r, 0, 5000, 10_000, 20_000),
				MinMaxCalls: 1, MaxMaxCalls: uint32(check.Between(r, 3, 8)),
			},
		}
		return c
	}
}

// small waits: none (bursts), a nanosecond, and the windows' sizes give
// or take one.
func smallWait(r *rand.Rand, m *model) uint64 {
	w := m.Cfg.Rate.WindowNs
	return check.Pick(r, 0, 0, 0, 1, 10, 50, w-1, w, w+1, m.Cfg.Congestion.WindowNs)
}

// recoverWait lands, often, exactly on the pending RecoverAtNs (or one
// ns either side).
func recoverWait(r *rand.Rand, m *model) uint64 {
	if m.Current != Normal && m.RecoverAt > m.Latest && check.Chance(r, 0.5) {
		d := m.RecoverAt - m.Latest
		return check.Pick(r, d, d, d-1, d+1, d+check.Between(r, 1, 100))
	}
	return smallWait(r, m)
}

// backFew steps back by 1, 10, 100 or 1000 ns.
func backFew(r *rand.Rand, _ setup, _ uint64) uint64 { return check.Pick[uint64](r, 1, 10, 100, 1000) }

func smallStart(r *rand.Rand) uint64 { return check.Pick[uint64](r, 0, 0, 5, check.Between(r, 0, 1e6)) }

func noAutoRecover(c Config) bool { return !c.Breaker.AutoRecover }

var allStates = []State{Normal, Degraded, Degraded, Paused, Paused}

// someLimit draws an override, now and then one with a 0 field, which
// SetIssuerLimit must refuse, changing nothing.
func someLimit(r *rand.Rand) RateLimit {
	rl := RateLimit{MaxCalls: uint32(check.Between(r, 1, 5)), WindowNs: check.Pick[uint64](r, 50, 100, 200, 1000)}
	switch r.Intn(10) {
	case 0:
		rl.MaxCalls = 0
	case 1:
		rl.WindowNs = 0
	}
	return rl
}

// recoverDomain: calls often exactly at the pending RecoverAtNs (or one ns
// either side), a Status now and then to show the period ended there too.
var recoverDomain = domain{
	aim:    aim{Check: "recover-first"},
	config: baseConfig(1), cfgOK: func(c Config) bool { return c.Breaker.AutoRecover },
	start: smallStart, wait: recoverWait,
	weights: weights(6, 3, 0, 0, 0, 1, 1), states: []State{Degraded, Degraded, Paused, Paused, Normal},
	addrs: []uint64{1, 2}, maxOps: 24,
}

var pauseDomain = domain{
	aim:    aim{Check: "pause-all"},
	config: baseConfig(0), cfgOK: noAutoRecover, start: smallStart, wait: smallWait,
	weights: weights(6, 2, 0, 0, 3, 0, 0), states: []State{Paused, Paused, Normal, Degraded},
	addrs: []uint64{1, 2}, maxOps: 20,
}

// whitelistDomain: bursts (a window rarely passes) at limits of one or
// two, addresses going on and off the list, degraded periods now and then.
var whitelistDomain = domain{
	aim: aim{Check: "whitelist-scope"},
	config: func(r *rand.Rand) Config {
		c := baseConfig(0)(r)
		c.Rate.MaxCalls = uint32(check.Between(r, 1, 2))
		return c
	},
	cfgOK: noAutoRecover, start: smallStart,
	wait:    func(r *rand.Rand, m *model) uint64 { return check.Pick(r, 0, 0, 0, 1, 10, m.Cfg.Rate.WindowNs) },
	weights: weights(8, 1, 0, 0, 4, 1, 1), states: []State{Degraded, Degraded, Normal},
	addrs: []uint64{1, 2, 3}, statusAfter: true, maxOps: 30,
}

var overrideDomain = domain{
	aim:    aim{Check: "override"},
	config: baseConfig(0), cfgOK: func(c Config) bool {
		return !c.Breaker.AutoRecover && (c.Congestion.ReduceBps > 0 || c.Congestion.IncreaseBps > 0)
	},
	start: smallStart, wait: smallWait,
	weights: weights(8, 0, 2, 1, 0, 2, 0), addrs: []uint64{1, 2}, limit: someLimit,
	statusAfter: true, maxOps: 30,
}

// rateDomain: the global limit alone, moved down and up by congestion
// (every step shown by a Status), early times, waits on the window's
// edges.
var rateDomain = domain{
	aim: aim{Check: "rate-window"},
	config: func(r *rand.Rand) Config {
		c := baseConfig(0)(r)
		c.Congestion.WindowNs = c.Rate.WindowNs / check.Pick[uint64](r, 1, 2)
		c.Congestion.ReduceBps = check.Pick[uint32](r, 5000, 7500, 10_000)
		c.Congestion.IncreaseBps = check.Pick[uint32](r, 10_000, 20_000, 30_000)
		return c
	},
	cfgOK: noAutoRecover, start: func(r *rand.Rand) uint64 { return check.Pick[uint64](r, 0, 1, 5, 50) },
	wait: func(r *rand.Rand, m *model) uint64 {
		w := m.Cfg.Rate.WindowNs
		return check.Pick(r, 0, 0, 0, 1, w/2, w-1, w, w+1)
	},
	weights: weights(10, 0, 0, 0, 0, 2, 0), addrs: []uint64{1, 2, 3}, statusAfter: true, maxOps: 30,
}

// gateDomain: congestion that reaches High easily but moves nothing (0
// basis points), and global limits that rarely refuse.
var gateDomain = domain{
	aim: aim{Check: "congestion-not-a-gate"},
	config: func(r *rand.Rand) Config {
		c := baseConfig(0)(r)
		c.Rate.MaxCalls = uint32(check.Between(r, 3, 6))
		c.Congestion = CongestionConfig{
			WindowNs: check.Pick[uint64](r, 100, 1000), LowBelow: 0, HighAbove: uint32(check.Between(r, 0, 3)),
			MinMaxCalls: 1, MaxMaxCalls: 8,
		}
		return c
	},
	cfgOK: func(c Config) bool {
		k := c.Congestion
		return !c.Breaker.AutoRecover && k.ReduceBps == 0 && k.IncreaseBps == 0 && c.Rate.MaxCalls >= k.MinMaxCalls && c.Rate.MaxCalls <= k.MaxMaxCalls
	},
	start: smallStart, wait: smallWait,
	weights: weights(8, 0, 0, 0, 0, 3, 0), addrs: []uint64{1, 2, 3, 4, 5}, maxOps: 24,
}

// stepDomain: limits from 1 to next to 2^32, basis points up to the
// largest, levels swinging straight from High to Low (a wait of a whole
// congestion window empties it), Adjusts repeated at the same level.
var stepDomain = domain{
	aim: aim{Check: "congestion-step"},
	config: func(r *rand.Rand) Config {
		low := uint32(check.Between(r, 1, 2))
		return Config{
			Rate: RateLimit{
				MaxCalls: check.Pick(r, 1, 2, 3, 100, 10_000, 1<<31, math.MaxUint32-uint32(check.Between(r, 0, 1000))),
				WindowNs: 100,
			},
			Congestion: CongestionConfig{
				WindowNs: check.Pick[uint64](r, 100, 300), LowBelow: low, HighAbove: low + uint32(check.Between(r, 0, 2)),
				ReduceBps:   check.Pick[uint32](r, 0, 1, 3333, 5000, 9999, 10_000),
				IncreaseBps: check.Pick[uint32](r, 1, 3333, 10_000, 65_535, 1<<31, math.MaxUint32),
				MinMaxCalls: check.Pick[uint32](r, 1, 2, 50), MaxMaxCalls: check.Pick[uint32](r, 200, 10_000, 1<<31, math.MaxUint32),
			},
		}
	},
	cfgOK: noAutoRecover, start: smallStart,
	wait: func(r *rand.Rand, m *model) uint64 {
		w := m.Cfg.Congestion.WindowNs
		return check.Pick(r, 0, 0, 0, 1, w/2, w, 2*w)
	},
	weights: weights(6, 0, 0, 0, 0, 3, 0), addrs: []uint64{1, 2, 3, 4}, statusAfter: true, maxOps: 30,
}

var degradedDomain = domain{
	aim: aim{Check: "degraded-period"},
	config: func(r *rand.Rand) Config {
		c := baseConfig(0)(r)
		c.Rate.MaxCalls = uint32(check.Between(r, 3, 6))
		return c
	},
	cfgOK: noAutoRecover, start: smallStart, wait: smallWait,
	weights: weights(8, 3, 0, 0, 0, 0, 2), states: []State{Degraded, Degraded, Degraded, Normal, Paused},
	addrs: []uint64{1, 2, 3}, maxOps: 30,
}

var precedenceDomain = domain{
	aim: aim{Check: "precedence"},
	config: func(r *rand.Rand) Config {
		c := baseConfig(0)(r)
		c.Rate = RateLimit{MaxCalls: uint32(check.Between(r, 1, 2)), WindowNs: 1000}
		c.Breaker.DegradedWriteLimit = uint32(check.Between(r, 0, 2))
		return c
	},
	cfgOK: noAutoRecover, start: smallStart, wait: func(r *rand.Rand, m *model) uint64 { return check.Pick[uint64](r, 0, 0, 1, 10) },
	weights: weights(8, 3, 0, 0, 0, 0, 0), states: []State{Paused, Degraded, Degraded, Normal},
	addrs: []uint64{1, 2}, maxOps: 20,
}

// statusDomain: every call, with Status often, right at and past
// RecoverAtNs; TTLs that saturate, one config in four.
var statusDomain = domain{
	aim: aim{Check: "status"},
	config: func(r *rand.Rand) Config {
		c := baseConfig(0.8)(r)
		if check.Chance(r, 0.25) {
			c.Breaker.TTLNs = math.MaxUint64 - check.Pick(r, 0, 1, check.Between(r, 0, 10))
		}
		return c
	},
	start: smallStart, wait: recoverWait,
	weights: weights(5, 3, 1, 1, 1, 2, 4), states: allStates, addrs: []uint64{1, 2}, limit: someLimit, swarm: true, maxOps: 30,
}

var backwardDomain = domain{
	aim:    aim{Check: "backward-time"},
	config: baseConfig(0.5), start: func(r *rand.Rand) uint64 { return check.Between(r, 0, 1e6) },
	wait: recoverWait, back: check.StepBack[setup]{Chance: 0.25, By: backFew},
	weights: weights(8, 2, 1, 1, 1, 2, 2), states: allStates, addrs: []uint64{1, 2}, limit: someLimit, swarm: true, maxOps: 30,
}

var exactDomain = domain{
	aim: aim{Check: "exactness"},
	config: func(r *rand.Rand) Config {
		c := baseConfig(0.5)(r)
		if check.Chance(r, 0.25) { // limits of 5 to 9: logs of writes long enough to grow
			c.Rate.MaxCalls = uint32(check.Between(r, 5, 9))
			c.Congestion.MaxMaxCalls = max(c.Congestion.MaxMaxCalls, c.Rate.MaxCalls)
		}
		return c
	},
	start: smallStart, wait: recoverWait,
	weights: weights(8, 2, 1, 1, 1, 2, 2), states: allStates, addrs: []uint64{1, 2, 3}, limit: someLimit, swarm: true, maxOps: 40,
	crowd: []uint64{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
}
