package gradient2

import (
	"math"
	"math/rand"
	"slices"

	"ratelab/grader/check"
)

// rules restrict the samples of a domain; see Valid.
type rules struct {
	noAppLimited bool // no sample is app-limited
	decayIsApp   bool // a sample decays if and only if it is app-limited (the decay shows in the samples after it, not in its own gradient)
	noDecay      bool // no sample decays
	inRange      bool // every sample that moves the limit has a gradient in [0.5, 1]: the clamp changes nothing
	noUpperMid   bool // every sample that moves the limit has raw gradient >= 1 or <= 0.5 (the clamp's corners)
	noRTTRise    bool // raw gradient <= 1 for samples that move the limit (no upper clamp)
	noLimitClamp bool // the limit never needs the [MinLimit, MaxLimit] clamp
	constantRTT  bool // every sample has the first sample's RTT
}

func (r rules) ok(s sample) bool {
	moves := !s.AppLimited
	switch {
	case r.noAppLimited && s.AppLimited,
		r.noDecay && s.Decays,
		r.decayIsApp && s.Decays != s.AppLimited,
		r.inRange && moves && (s.Raw < 0.5 || s.Raw > 1),
		r.noUpperMid && moves && s.Raw > 0.5 && s.Raw < 1,
		r.noRTTRise && moves && s.Raw > 1,
		r.noLimitClamp && moves && s.Est != s.Smoothed:
		return false
	}
	return true
}

// domain is a check.Domain of Gradient2's scripts.
type domain struct {
	aim     // the check it is for
	setup   func(r *rand.Rand) setup
	setupOK func(s setup) bool
	// rtt and inflight draw the next sample given the model's state
	// (m.Long is the long RTT before this sample; m.Seen how many
	// samples it has).
	rtt      func(r *rand.Rand, m *model) uint64
	inflight func(r *rand.Rand, m *model, rtt uint64) int
	repeat   float64 // chance that an op repeats its sample
	// fill is the chance that a script starts with the warm-up done: one
	// RTT at least 10 times, so that every way of warming up (a mean, an
	// average started at the first sample) gives the same long RTT, and
	// the script is about what comes after. At 1 every script does.
	fill  float64
	limit float64 // chance of a Limit() call
	// swarm, if set, draws at the start of each script the domain it
	// is drawn from (rtt, inflight, repeat and limit; never the rules):
	// swarm testing, each script first choosing which kinds of samples
	// it may send.
	swarm  func(r *rand.Rand, d domain) domain
	rules  rules
	maxOps int
}

type aim = check.Aim[setup, op]

// setupValid reports whether s keeps to d's rules.
func (d domain) setupValid(s setup) bool { return setupOK(s) && (d.setupOK == nil || d.setupOK(s)) }

// Valid returns how many leading ops of s keep to d's rules, replaying s
// on the model; -1 if the setup does not.
func (d domain) Valid(s script) int {
	if !d.setupValid(s.Setup) {
		return -1
	}
	cfg := s.Setup.config()
	byLimit := s.Setup.Queue.byLimit()
	m := newModel(cfg)
	var first uint64
	if d.fill == 1 && (len(s.Ops) == 0 || s.Ops[0].Limit || s.Ops[0].Times < warmup) {
		return 0
	}
	for i, o := range s.Ops {
		if o.Limit {
			continue
		}
		if o.RTT == 0 || o.Times < 1 || o.Times > 20 {
			return i
		}
		if first == 0 {
			first = o.RTT
		}
		if d.rules.constantRTT && o.RTT != first {
			return i
		}
		for range o.Times {
			smp := m.Update(o.RTT, o.Inflight)
			if edgy(smp, byLimit, o.Inflight) || !d.rules.ok(smp) {
				return i
			}
		}
	}
	return len(s.Ops)
}

// Gen draws a script, choosing each sample with the model's state in view,
// trying a few candidates for one that keeps to the rules, and keeps the
// longest valid prefix.
func (d domain) Gen(r *rand.Rand, size int) script {
	st := check.DrawUntil(r, d.setup, d.setupValid)
	if d.swarm != nil {
		d = d.swarm(r, d)
	}
	cfg := st.config()
	byLimit := st.Queue.byLimit()
	m := newModel(cfg)
	var ops []op
	var first uint64
	if d.fill == 1 || d.fill > 0 && check.Chance(r, d.fill) {
		o := op{RTT: base(r), Times: int(check.Between(r, warmup, warmup+2))}
		tries := []int{busy(r, m, o.RTT), idle(r, m)}
		if check.Chance(r, 0.5) {
			tries[0], tries[1] = tries[1], tries[0]
		}
		for _, in := range tries {
			o.Inflight = in
			try := *m
			good := true
			for range o.Times {
				if smp := try.Update(o.RTT, o.Inflight); edgy(smp, byLimit, o.Inflight) || !d.rules.ok(smp) {
					good = false
					break
				}
			}
			if good {
				*m = try
				ops, first = append(ops, o), o.RTT
				break
			}
		}
	}
	for range check.Ops(r, size, 1, d.maxOps) {
		if check.Chance(r, d.limit) {
			ops = append(ops, op{Limit: true})
			continue
		}
		found := false
		for range 12 {
			o := op{RTT: max(1, d.rtt(r, m)), Times: 1}
			if d.rules.constantRTT && first != 0 {
				o.RTT = first
			}
			if check.Chance(r, d.repeat) {
				o.Times = int(check.Between(r, 2, 10))
			}
			o.Inflight = d.inflight(r, m, o.RTT)
			try := *m
			good := true
			for range o.Times {
				smp := try.Update(o.RTT, o.Inflight)
				if edgy(smp, byLimit, o.Inflight) || !d.rules.ok(smp) {
					good = false
					break
				}
			}
			if !good {
				continue
			}
			*m = try
			if first == 0 {
				first = o.RTT
			}
			ops = append(ops, o)
			found = true
			break
		}
		if !found {
			break
		}
	}
	return check.ValidPrefix(d, script{Setup: st, Ops: ops})
}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return check.Over(d, shrinkSetup, shrinkOp, func(s script) check.Trace { return replay(newImpl, s) })
}

// Drawing setups and samples.

func initial(r *rand.Rand) float64 {
	return check.Pick(r, 20.0, 100, 250, 1000, 3333.5, 20_000, float64(check.Between(r, 10, 5000)))
}

func window(r *rand.Rand) int {
	return check.Pick(r, 1, 2, 3, 5, 10, 50, 600, int(check.Between(r, 1, 1000)))
}

// floorless is what every domain but the floor check's and exactness's
// keeps to: a MinLimit of at least 1 and an opening limit of at least 10, as
// drawn, and the limit never clamped (rules.noLimitClamp). A floor of an
// implementation's own (say, 4 where MinLimit is 0) then never shows
// outside the floor check, which is the one about floors.
func floorless(s setup) bool { return s.Min >= 1 && s.Initial >= 10 }

// unsmoothed reports whether s is floorless, with Smoothing 1 (each new
// limit replaces the old one, unblended) and RTTTolerance 1 (the RTTs'
// ratio as it is).
func unsmoothed(s setup) bool { return floorless(s) && s.Smoothing == 1 && s.Tol == 1 }

// roomy draws a setup whose limit has room to move both ways.
func roomy(r *rand.Rand) setup {
	in := initial(r)
	return setup{
		Initial: in, Min: in * check.Pick(r, 0.1, 0.2), Max: in * check.Pick(r, 100.0, 1000),
		Smoothing: 1, Tol: 1, Window: window(r),
		Queue: check.Pick(r, queueNil, queueZero, queueEight),
	}
}

func base(r *rand.Rand) uint64 {
	return check.Pick(r, 1000, 50_000, 1_000_000, 12_345_678, check.Between(r, 100, 100_000_000))
}

// times scales the long RTT (before this sample) by k, or draws a first
// RTT.
func times(r *rand.Rand, m *model, ks ...float64) uint64 {
	if m.Seen == 0 {
		return base(r)
	}
	return uint64(math.Round(m.Long * check.Pick(r, ks...)))
}

// rising draws an RTT slower than the long one, by more than the
// tolerance: the gradient is below 1 but, often, above 0.5.
func rising(r *rand.Rand, m *model) uint64 {
	t := m.Cfg.RTTTolerance
	return times(r, m, t, t*1.1, t*1.3, t*1.6, t*2, t*3)
}

// busy draws an inflight that is clearly not app-limited.
func busy(r *rand.Rand, m *model, _ uint64) int {
	e := m.Est
	return check.Pick(r, int(math.Ceil(e)), int(math.Ceil(e))+int(check.Between(r, 0, 100)), int(math.Ceil(e/2))+1, 1_000_000)
}

// idle draws an inflight that is clearly app-limited, if there is one.
func idle(r *rand.Rand, m *model) int {
	half := m.Est / 2
	if half <= 1 {
		return 0
	}
	return check.Pick(r, 0, int(math.Ceil(half))-1, int(check.Between(r, 0, uint64(half/2))))
}

// boundary returns inflight == limit/2 exactly when that is an integer the
// implementation must hold exactly too; otherwise a busy inflight.
func boundary(r *rand.Rand, m *model) int {
	if h := m.Est / 2; m.Exact && h == math.Trunc(h) && h < 1e9 {
		return int(h)
	}
	return busy(r, m, 0)
}

var warmupDomain = domain{
	aim:     aim{Check: "warmup"},
	setup:   roomy,
	setupOK: unsmoothed,
	rtt: func(r *rand.Rand, m *model) uint64 {
		return times(r, m, 1, 1.02, 1.1, 1.3, 1.6, 1.9)
	},
	inflight: busy,
	repeat:   0.3,
	rules:    rules{noAppLimited: true, noDecay: true, inRange: true, noLimitClamp: true},
	maxOps:   14,
}

// decayDomain makes the decaying samples app-limited, and only those, so
// that the decay shows in the gradient of the samples after it (a decaying
// sample's own gradient is clamped to 1 anyway). The tolerance is 1, so
// that the warm-up fill can move the limit. Most scripts start with the
// warm-up done, where a decay lasts; the others decay during the warm-up
// too, where the next sample's mean forgets it.
var decayDomain = domain{
	aim: aim{Check: "long-rtt-decay"},
	setup: func(r *rand.Rand) setup {
		s := roomy(r)
		s.Window = check.Pick(r, 2, 3, 5, 10, 50, 600)
		return s
	},
	setupOK: unsmoothed,
	rtt: func(r *rand.Rand, m *model) uint64 {
		if check.Chance(r, 0.35) {
			return times(r, m, 1/2.5, 1.0/3, 0.2, 0.1)
		}
		return rising(r, m)
	},
	inflight: func(r *rand.Rand, m *model, rtt uint64) int {
		if m.Seen > 0 && float64(rtt) < m.Long/2 {
			return idle(r, m)
		}
		return busy(r, m, rtt)
	},
	fill:   0.7,
	repeat: 0.3,
	rules:  rules{decayIsApp: true, inRange: true, noLimitClamp: true},
	maxOps: 12,
}

// appDomain keeps RTTTolerance at 1: how the gradient uses it is the
// gradient check's business.
var appDomain = domain{
	aim:     aim{Check: "app-limited"},
	setup:   roomy,
	setupOK: unsmoothed,
	rtt: func(r *rand.Rand, m *model) uint64 {
		if check.Chance(r, 0.5) {
			return times(r, m, 0.6, 0.8, 1.5, 3, 10)
		}
		return rising(r, m)
	},
	inflight: func(r *rand.Rand, m *model, rtt uint64) int {
		switch r.Intn(4) {
		case 0, 1:
			return idle(r, m)
		case 2:
			return boundary(r, m)
		}
		return busy(r, m, rtt)
	},
	fill:   1,
	repeat: 0.2,
	rules:  rules{noDecay: true, inRange: true, noLimitClamp: true},
	maxOps: 16,
}

var clampDomain = domain{
	aim: aim{Check: "gradient-clamp"},
	setup: func(r *rand.Rand) setup {
		s := roomy(r)
		s.Tol = check.Pick(r, 1.0, 1.2, 1.5, 2, 3)
		s.Min = 1
		return s
	},
	setupOK: func(s setup) bool { return floorless(s) && s.Smoothing == 1 },
	rtt: func(r *rand.Rand, m *model) uint64 {
		return times(r, m, 3, 5, 10, 30, 100, 1000, 0.55, 0.7, 0.9, 1, 1.05, 1.2)
	},
	inflight: busy,
	fill:     1,
	repeat:   0.2,
	rules:    rules{noAppLimited: true, noDecay: true, noUpperMid: true, noLimitClamp: true},
	maxOps:   12,
}

var smoothingDomain = domain{
	aim: aim{Check: "smoothing"},
	setup: func(r *rand.Rand) setup {
		s := roomy(r)
		s.Smoothing = check.Pick(r, 0.0, 0.1, 0.2, 0.25, 0.5, 0.75, 0.9, r.Float64())
		s.Queue = check.Pick(r, queueNil, queueZero, queueEight, queueSqrt, queueTenth)
		return s
	},
	setupOK:  func(s setup) bool { return floorless(s) && s.Tol == 1 },
	rtt:      func(r *rand.Rand, m *model) uint64 { return times(r, m, 1) },
	inflight: busy,
	repeat:   0.4,
	rules:    rules{noAppLimited: true, constantRTT: true, noLimitClamp: true},
	maxOps:   10,
}

// floorDomain drives the limit into its clamp: a floor near the opening
// limit, a ceiling just above it, or (MinLimit 0) a limit that halves to
// nothing without a queue allowance, where a floor of the implementation's
// own shows. Some scripts smooth, where a clamp before the smoothing
// shows.
var floorDomain = domain{
	aim: aim{Check: "floor-ceiling"},
	setup: func(r *rand.Rand) setup {
		s := roomy(r)
		s.Min = s.Initial * check.Pick(r, 0.5, 0.8, 0.9, 1.0)
		s.Max = s.Initial*check.Pick(r, 1, 1.05, 1.2, 1.5) + check.Pick(r, 0.0, 4)
		if check.Chance(r, 0.3) {
			s.Min, s.Queue = 0, queueZero
			s.Initial = float64(check.Between(r, 10, 40))
			s.Max = s.Initial * 100
		}
		if check.Chance(r, 0.3) {
			s.Smoothing = check.Pick(r, 0.5, 0.2)
		}
		return s
	},
	setupOK:  func(s setup) bool { return s.Initial >= 10 && s.Tol == 1 },
	rtt:      func(r *rand.Rand, m *model) uint64 { return times(r, m, 1, 1, 1.2, 1.5, 1.9, 2, 2, 4) },
	inflight: busy,
	fill:     1,
	repeat:   0.3,
	rules:    rules{noAppLimited: true, noDecay: true, inRange: true},
	maxOps:   12,
}

var exactDomain = domain{
	aim: aim{Check: "exactness"},
	// The opening limit stays as drawn (at least 10) when shrinking.
	setupOK: func(s setup) bool { return s.Initial >= 10 },
	setup: func(r *rand.Rand) setup {
		in := initial(r)
		return setup{
			Initial: in, Min: in * check.Pick(r, 0.0, 0.1, 0.5, 1), Max: in * check.Pick(r, 1.0, 1.5, 10, 1000),
			Smoothing: check.Pick(r, 0.2, 0.2, 0.5, 1, 0, r.Float64()),
			Tol:       check.Pick(r, 1.0, 1.5, 1.5, 2, 1+r.Float64()),
			Window:    window(r),
			Queue:     check.Pick(r, queueNil, queueNil, queueZero, queueEight, queueSqrt, queueTenth),
		}
	},
	swarm:  exactSamples,
	maxOps: 30,
}

// exactSamples draws which kinds of samples an exactness script may send:
// RTTs faster than the long one, slower, or both; app-limited samples,
// samples at limit/2, busy ones (at least one of the three); repeats and
// Limit() calls, or not.
func exactSamples(r *rand.Rand, d domain) domain {
	fast := []float64{0.3, 0.5, 0.8, 1, 1}
	slow := []float64{1, 1, 1.2, 1.5, 2, 4, 10}
	ks := check.Pick(r, slices.Concat(fast, slow), fast, slow)
	d.rtt = func(r *rand.Rand, m *model) uint64 {
		return times(r, m, append(slices.Clone(ks), 0.5+r.Float64())...)
	}
	var kinds []int
	for k := range 3 {
		if check.Chance(r, 0.6) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		kinds = []int{2}
	}
	d.inflight = func(r *rand.Rand, m *model, rtt uint64) int {
		switch check.Pick(r, kinds...) {
		case 0:
			return idle(r, m)
		case 1:
			return boundary(r, m)
		}
		return busy(r, m, rtt)
	}
	d.repeat = check.Pick(r, 0, 0.3, 0.6)
	d.limit = check.Pick(r, 0, 0.1, 0.3)
	return d
}
