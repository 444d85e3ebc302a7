package governor

import (
	"math"
	"math/rand"

	"ratelab/grader/check"
)

// domain is a check.Domain of the governor's scripts.
type domain struct {
	aim     // the check it is for
	setup   func(r *rand.Rand) Config
	setupOK func(c Config) bool
	// next draws the next op given the model's state, or reports false
	// if it finds none.
	next nexter
	// swarm, if set, draws at the start of each script the next it uses
	// (in place of next): swarm testing, each script first choosing which
	// calls it may make, so that some scripts make many of a few kinds.
	swarm func(r *rand.Rand) nexter
	// opOK reports whether an op keeps to the rules; t is the model's
	// tick for Observe ops (nil otherwise).
	opOK   func(c Config, o op, t *tick, m *model) bool
	judge  judge
	low    bool
	maxOps int
}

type aim = check.Aim[setup, op]

// nexter draws the next op of a script given the model's state, or
// reports false if it finds none.
type nexter func(r *rand.Rand, c Config, m *model, cumF, cumR uint64) (op, bool)

// setupValid reports whether c keeps to d's rules.
func (d domain) setupValid(c Config) bool { return configOK(c) && (d.setupOK == nil || d.setupOK(c)) }

// Valid returns how many leading ops of s keep to d's rules, replaying s
// on the model; -1 if the setup does not.
func (d domain) Valid(s script) int {
	c := s.Setup.Config
	if s.Setup.judge != d.judge || s.Setup.low != d.low || !d.setupValid(c) {
		return -1
	}
	m := newModel(c)
	var cumF, cumR uint64
	for i, o := range s.Ops {
		var tp *tick
		switch o.Kind {
		case opWindow:
			if cumF > math.MaxUint64-o.F || cumR > math.MaxUint64-o.R {
				return i
			}
			cumF, cumR = cumF+o.F, cumR+o.R
			t := m.observe(cumF, cumR)
			tp = &t
		case opReset:
			if o.F >= cumF && o.R >= cumR {
				return i // not a reset
			}
			cumF, cumR = o.F, o.R
			t := m.observe(cumF, cumR)
			tp = &t
		}
		if tp != nil && tp.edgy {
			return i
		}
		if !d.opOK(c, o, tp, m) {
			return i
		}
	}
	return len(s.Ops)
}

// configOK is what every domain assumes: the contract's valid configs.
func configOK(c Config) bool {
	return c.Floor > 0 && c.Ceiling >= c.Floor && c.Low >= 0 && c.High >= c.Low && c.High <= 1 &&
		!math.IsInf(c.Ceiling, 0) && !math.IsNaN(c.Start) && !math.IsInf(c.Start, 0)
}

func (d domain) Gen(r *rand.Rand, size int) script {
	c := check.DrawUntil(r, d.setup, d.setupValid)
	next := d.next
	if d.swarm != nil {
		next = d.swarm(r)
	}
	m := newModel(c)
	var cumF, cumR uint64
	var ops []op
	for range check.Ops(r, size, 1, d.maxOps) {
		o, ok := next(r, c, m, cumF, cumR)
		if !ok {
			break
		}
		switch o.Kind {
		case opWindow:
			cumF, cumR = cumF+o.F, cumR+o.R
			m.observe(cumF, cumR)
		case opReset:
			cumF, cumR = o.F, o.R
			m.observe(cumF, cumR)
		}
		ops = append(ops, o)
	}
	return check.ValidPrefix(d, script{Setup: setup{Config: c, judge: d.judge, low: d.low}, Ops: ops})
}

func (d domain) property(impl Impl) check.Property[setup, op] {
	return check.Over(d, shrinkSetup, shrinkOp, func(s script) check.Trace { return replay(impl, s) })
}

// Drawing configs and windows.

// bands are (Low, High) pairs: with and without a dead band, narrow and
// wide.
var bands = [][2]float64{{0, 0}, {0, 0.05}, {0.01, 0.05}, {0.02, 0.1}, {0.05, 0.2}, {0.1, 0.1}, {0, 0.5}, {0.25, 0.5}, {0.01, 0.02}}

func drawConfig(r *rand.Rand) Config {
	floor := check.Pick(r, 1, 2, 5, 10, 0.5, 1.25, float64(check.Between(r, 1, 50)))
	ceiling := floor * check.Pick(r, 1, 1.5, 4, 10, 16, 100, 1000, float64(check.Between(r, 2, 300))/3)
	b := check.Pick(r, bands...)
	return Config{Floor: floor, Ceiling: ceiling, Low: b[0], High: b[1]}
}

// inside returns a value of [lo, hi]: an end, or a point between.
func inside(r *rand.Rand, lo, hi float64) float64 {
	switch r.Intn(5) {
	case 0:
		return lo
	case 1:
		return hi
	case 2:
		return math.Round(lo + (hi-lo)*r.Float64())
	}
	return lo + (hi-lo)*r.Float64()
}

// explicitStart draws a config whose Start is set inside [Floor, Ceiling].
func explicitStart(r *rand.Rand) Config {
	c := drawConfig(r)
	c.Start = inside(r, c.Floor, c.Ceiling)
	for c.Start == 0 {
		c.Start = c.Floor
	}
	return c
}

func startInside(c Config) bool { return c.Start >= c.Floor && c.Start <= c.Ceiling }

var sizes = []uint64{1, 2, 3, 5, 10, 20, 50, 100, 200, 1000, 10_000}

// window draws a window of the given kind, or reports false if the config
// has none (no dead band, or High = 1). strict keeps a clean window
// strictly below Low (or without failures).
func window(r *rand.Rand, c Config, k kind, strict bool) (op, bool) {
	if k == empty {
		return op{Kind: opWindow, F: check.Pick(r, 0, 0, check.Between(r, 1, 5))}, true
	}
	for range 8 {
		n := check.Pick(r, check.Pick(r, sizes...), check.Between(r, 1, 1000))
		lowF, highF := maxFailed(n, c.Low), maxFailed(n, c.High)
		var lo, hi uint64
		switch k {
		case clean:
			lo, hi = 0, lowF
			if strict && hi > 0 && float64(hi)/float64(n) == c.Low {
				hi--
			}
		case band:
			lo, hi = lowF+1, highF
		case breach:
			lo, hi = highF+1, n
		}
		if lo > hi {
			continue
		}
		return op{Kind: opWindow, F: check.Pick(r, lo, hi, check.Between(r, lo, hi)), R: n}, true
	}
	return op{}, false
}

// maxFailed is the largest failure count out of n whose fraction is <= x.
func maxFailed(n uint64, x float64) uint64 {
	k := min(n, uint64(x*float64(n))+1)
	for k > 0 && float64(k)/float64(n) > x {
		k--
	}
	return k
}

// resetOp draws counters below the current ones, or reports false if they
// are both 0.
func resetOp(r *rand.Rand, cumF, cumR uint64) (op, bool) {
	if cumF == 0 && cumR == 0 {
		return op{}, false
	}
	if cumF > 0 && check.Chance(r, 0.3) { // only the failures went back
		return op{Kind: opReset, F: check.Between(r, 0, cumF-1), R: cumR + check.Between(r, 0, 100)}, true
	}
	if cumR == 0 {
		return op{Kind: opReset, F: 0, R: 0}, true
	}
	nr := check.Pick(r, 0, check.Between(r, 0, cumR-1))
	// After a reset the counters often hold a few attempts already, with
	// a failure ratio unlike the next window's.
	return op{Kind: opReset, F: check.Between(r, 0, nr), R: nr}, true
}

// weighted picks a kind with the given weights.
func weighted(r *rand.Rand, w map[kind]float64) kind {
	total := 0.0
	for _, k := range []kind{clean, band, breach, empty, reset} {
		total += w[k]
	}
	x := r.Float64() * total
	for _, k := range []kind{clean, band, breach, empty, reset} {
		if x < w[k] {
			return k
		}
		x -= w[k]
	}
	return clean
}

// observeNext draws windows of the kinds weighted by w (given the model's
// state), retrying a kind the config cannot make.
func observeNext(w func(m *model) map[kind]float64, strict bool) nexter {
	return func(r *rand.Rand, c Config, m *model, cumF, cumR uint64) (op, bool) {
		for range 10 {
			k := weighted(r, w(m))
			var o op
			var ok bool
			if k == reset {
				o, ok = resetOp(r, cumF, cumR)
			} else {
				o, ok = window(r, c, k, strict)
			}
			if ok {
				return o, true
			}
		}
		return op{}, false
	}
}

// windowKinds returns an opOK that allows Observe windows of the given
// kinds only.
func windowKinds(strict bool, ks ...kind) func(Config, op, *tick, *model) bool {
	return func(c Config, o op, t *tick, _ *model) bool {
		if t == nil {
			return false
		}
		if strict && t.kind == clean && o.F > 0 && t.frac >= c.Low {
			return false
		}
		for _, k := range ks {
			if t.kind == k {
				return true
			}
		}
		return false
	}
}

// Drawing Decide calls.

// memoryIn draws a congestion memory: none, or an offer of [Floor, Ceiling].
func memoryIn(r *rand.Rand, c Config) float64 {
	if check.Chance(r, 0.3) {
		return 0
	}
	return inside(r, c.Floor, c.Ceiling)
}

func memoryOK(c Config, lastBad float64) bool {
	return lastBad == 0 || lastBad >= c.Floor && lastBad <= c.Ceiling
}

func offerOK(c Config, x float64) bool { return x >= c.Floor && x <= c.Ceiling }

func severity(frac float64) float64 { return math.Min(math.Max(1-frac, 0.25), 0.9) }

func probeStep(lastBad float64) float64 { return math.Max(1, 0.02*lastBad) }

func decideOnly(ok func(c Config, o op) bool) func(Config, op, *tick, *model) bool {
	return func(c Config, o op, _ *tick, _ *model) bool { return o.Kind == opDecide && ok(c, o) }
}

// retry draws with try until ok accepts, at most 20 times.
func retry(try func() op, ok func(op) bool) (op, bool) {
	for range 20 {
		if o := try(); ok(o) {
			return o, true
		}
	}
	return op{}, false
}

func breachFrac(r *rand.Rand, c Config) float64 {
	return check.Pick(r, math.Nextafter(c.High, 2), c.High+0.01, 0.1, 0.31, 0.5, 0.75, 0.9, 1, 1.2, c.High+(1-c.High)*r.Float64())
}

// The domains, one per check.

var slowStartDomain = domain{
	aim: aim{Check: "slow-start"},
	setup: func(r *rand.Rand) Config {
		c := drawConfig(r)
		if check.Chance(r, 0.5) {
			c.Start = inside(r, c.Floor, c.Ceiling)
		}
		return c
	},
	setupOK: func(c Config) bool { return c.Start == 0 || startInside(c) },
	next:    observeNext(func(*model) map[kind]float64 { return map[kind]float64{clean: 1} }, true),
	opOK:    windowKinds(true, clean),
	maxOps:  12,
}

var backOffDomain = domain{
	aim:   aim{Check: "back-off"},
	setup: drawConfig,
	next: func(r *rand.Rand, c Config, _ *model, _, _ uint64) (op, bool) {
		return retry(func() op {
			return op{Kind: opDecide, Frac: breachFrac(r, c), Current: inside(r, c.Floor, c.Ceiling), LastBad: memoryIn(r, c)}
		}, func(o op) bool { return backOffOK(c, o) })
	},
	opOK:   decideOnly(backOffOK),
	maxOps: 10,
}

func backOffOK(c Config, o op) bool {
	return o.Frac > c.High && o.Frac <= 2 && offerOK(c, o.Current) && memoryOK(c, o.LastBad) &&
		o.Current*severity(o.Frac) >= c.Floor
}

var deadBandDomain = domain{
	aim:     aim{Check: "dead-band"},
	setup:   drawConfig,
	setupOK: func(c Config) bool { return c.High > c.Low },
	next: func(r *rand.Rand, c Config, _ *model, _, _ uint64) (op, bool) {
		return retry(func() op {
			frac := check.Pick(r, math.Nextafter(c.Low, 1), c.High, c.High, c.Low, c.Low+(c.High-c.Low)*r.Float64())
			return op{Kind: opDecide, Frac: frac, Current: inside(r, c.Floor, c.Ceiling), LastBad: memoryIn(r, c)}
		}, func(o op) bool { return deadBandOK(c, o) })
	},
	opOK:   decideOnly(deadBandOK),
	low:    true,
	maxOps: 10,
}

func deadBandOK(c Config, o op) bool {
	return o.Frac >= c.Low && o.Frac <= c.High && offerOK(c, o.Current) && memoryOK(c, o.LastBad)
}

// cleanFrac reports whether frac is clean without touching the Low
// boundary (that is the dead band's check).
func cleanFrac(c Config, frac float64) bool { return frac == 0 || frac >= 0 && frac < c.Low }

func drawCleanFrac(r *rand.Rand, c Config) float64 {
	if c.Low == 0 {
		return 0
	}
	return check.Pick(r, 0, 0, c.Low/2, math.Nextafter(c.Low, 0), c.Low*r.Float64())
}

var memoryDomain = domain{
	aim:   aim{Check: "recover-then-probe"},
	setup: drawConfig,
	next: func(r *rand.Rand, c Config, _ *model, _, _ uint64) (op, bool) {
		return retry(func() op {
			lb := inside(r, c.Floor, c.Ceiling)
			cur := check.Pick(r, 0.75*lb, math.Nextafter(0.75*lb, 0), lb*check.Pick(r, 0.3, 0.5, 0.6, 0.7, 0.74), lb, lb*1.1, lb*1.5, inside(r, c.Floor, c.Ceiling))
			return op{Kind: opDecide, Frac: drawCleanFrac(r, c), Current: cur, LastBad: lb}
		}, func(o op) bool { return memoryOK2(c, o) })
	},
	opOK:   decideOnly(memoryOK2),
	maxOps: 10,
}

func memoryOK2(c Config, o op) bool {
	return cleanFrac(c, o.Frac) && o.LastBad > 0 && memoryOK(c, o.LastBad) && offerOK(c, o.Current) &&
		(o.Current < 0.75*o.LastBad || o.Current+probeStep(o.LastBad) <= c.Ceiling)
}

var floorCeilingDomain = domain{
	aim:   aim{Check: "floor-ceiling"},
	setup: drawConfig,
	next: func(r *rand.Rand, c Config, _ *model, _, _ uint64) (op, bool) {
		return retry(func() op {
			switch r.Intn(3) {
			case 0: // a back-off that would go below the floor
				frac := breachFrac(r, c)
				hi := math.Min(c.Ceiling, c.Floor/severity(frac))
				return op{Kind: opDecide, Frac: frac, Current: c.Floor + (hi-c.Floor)*r.Float64(), LastBad: memoryIn(r, c)}
			case 1: // a doubling past the ceiling
				return op{Kind: opDecide, Frac: drawCleanFrac(r, c), Current: check.Pick(r, c.Ceiling, c.Ceiling/2+c.Ceiling/2*r.Float64())}
			}
			lb := inside(r, c.Floor, c.Ceiling) // a probe past the ceiling
			lo := math.Max(0.75*lb, c.Ceiling-probeStep(lb))
			return op{Kind: opDecide, Frac: drawCleanFrac(r, c), Current: check.Pick(r, c.Ceiling, lo+(c.Ceiling-lo)*r.Float64()), LastBad: lb}
		}, func(o op) bool { return floorCeilingOK(c, o) })
	},
	opOK:   decideOnly(floorCeilingOK),
	maxOps: 10,
}

func floorCeilingOK(c Config, o op) bool {
	if !offerOK(c, o.Current) || !memoryOK(c, o.LastBad) {
		return false
	}
	switch {
	case o.Frac > c.High:
		return o.Frac <= 2 && o.Current*severity(o.Frac) < c.Floor
	case !cleanFrac(c, o.Frac):
		return false
	case o.LastBad == 0:
		return 2*o.Current > c.Ceiling
	}
	return o.Current >= 0.75*o.LastBad && o.Current+probeStep(o.LastBad) > c.Ceiling
}

var openingDomain = domain{
	aim: aim{Check: "opening-offer"},
	setup: func(r *rand.Rand) Config {
		c := drawConfig(r)
		c.Start = check.Pick(r, c.Floor/2, c.Floor-0.5, -1, c.Ceiling*2, c.Ceiling+1, 1e9, inside(r, c.Floor, c.Ceiling))
		return c
	},
	// Start 0 (the floor) is slow-start's business.
	setupOK: func(c Config) bool { return c.Start != 0 },
	next: func(r *rand.Rand, _ Config, _ *model, _, _ uint64) (op, bool) {
		return op{Kind: check.Pick(r, opOffer, opOffer, opLastBad)}, true
	},
	opOK:   func(_ Config, o op, _ *tick, _ *model) bool { return o.Kind == opOffer || o.Kind == opLastBad },
	maxOps: 2,
}

// memoryClearDomain often opens at the floor: a breach there leaves the
// offer at LastBad, so streaks (and their interruptions) come early and
// counterexamples stay short. One script in five opens at a low ceiling
// instead, where the probes climb back to an offer equal to LastBad.
var memoryClearDomain = domain{
	aim: aim{Check: "memory-clear"},
	setup: func(r *rand.Rand) Config {
		c := explicitStart(r)
		if check.Chance(r, 0.2) {
			// Opened at a ceiling a few floors up: a breach there makes
			// the ceiling the memory, and the probes that follow stop at
			// exactly it, an offer equal to LastBad.
			c.Ceiling = c.Floor * check.Pick(r, 2.0, 3, 4)
			c.Start = c.Ceiling
			return c
		}
		c.Ceiling = math.Max(c.Ceiling, c.Floor*check.Pick(r, 20.0, 100, 1000))
		if check.Chance(r, 0.5) {
			c.Start = c.Floor
		}
		return c
	},
	setupOK: startInside,
	next: observeNext(func(m *model) map[kind]float64 {
		if m.LastBad == 0 {
			return map[kind]float64{clean: 0.3, band: 0.1, breach: 0.5, empty: 0.05, reset: 0.05}
		}
		return map[kind]float64{clean: 0.7, band: 0.1, breach: 0.06, empty: 0.07, reset: 0.07}
	}, false),
	opOK:   windowKinds(false, clean, band, breach, empty, reset),
	judge:  memory,
	maxOps: 24,
}

var windowingDomain = domain{
	aim:     aim{Check: "windowing"},
	setup:   explicitStart,
	setupOK: startInside,
	next: observeNext(func(*model) map[kind]float64 {
		return map[kind]float64{clean: 0.4, breach: 0.3, empty: 0.15, reset: 0.15}
	}, false),
	opOK:   windowKinds(false, clean, breach, empty, reset),
	judge:  classes,
	maxOps: 20,
}

var exactDomain = domain{
	aim: aim{Check: "exactness"},
	setup: func(r *rand.Rand) Config {
		c := drawConfig(r)
		c.Start = check.Pick(r, 0, 0, c.Floor/2, c.Ceiling*2, inside(r, c.Floor, c.Ceiling), inside(r, c.Floor, c.Ceiling))
		return c
	},
	swarm: exactCalls,
	opOK: func(c Config, o op, _ *tick, _ *model) bool {
		if o.Kind == opDecide {
			return o.Frac >= 0 && o.Frac <= 2 && offerOK(c, o.Current) && memoryOK(c, o.LastBad)
		}
		return true
	},
	maxOps: 40,
}

// exactCalls draws which calls an exactness script may make (each kind of
// call, and each kind of window, or not) and returns its next.
func exactCalls(r *rand.Rand) nexter {
	offer, lastBad, decide := check.Chance(r, 0.6), check.Chance(r, 0.6), check.Chance(r, 0.5)
	windows := map[kind]bool{}
	for _, k := range []kind{clean, band, breach, empty, reset} {
		windows[k] = check.Chance(r, 0.7)
	}
	weights := func(m *model) map[kind]float64 {
		w := map[kind]float64{clean: 0.4, band: 0.15, breach: 0.3, empty: 0.08, reset: 0.07}
		if m.LastBad > 0 {
			w = map[kind]float64{clean: 0.65, band: 0.12, breach: 0.11, empty: 0.06, reset: 0.06}
		}
		kept := map[kind]float64{}
		for k, x := range w {
			if windows[k] {
				kept[k] = x
			}
		}
		if len(kept) == 0 {
			kept[clean] = 1
		}
		return kept
	}
	observe := observeNext(weights, false)
	return func(r *rand.Rand, c Config, m *model, cumF, cumR uint64) (op, bool) {
		switch x := r.Float64(); {
		case x < 0.1 && offer:
			return op{Kind: opOffer}, true
		case x >= 0.1 && x < 0.2 && lastBad:
			return op{Kind: opLastBad}, true
		case x >= 0.2 && x < 0.35 && decide:
			frac := check.Pick(r, breachFrac(r, c), drawCleanFrac(r, c), c.Low, c.High, c.Low+(c.High-c.Low)*r.Float64())
			return op{Kind: opDecide, Frac: frac, Current: inside(r, c.Floor, c.Ceiling), LastBad: memoryIn(r, c)}, true
		}
		return observe(r, c, m, cumF, cumR)
	}
}
