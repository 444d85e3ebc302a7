package governor

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"

	"ratelab/grader/check"
)

// opKind is what one step of a script does.
type opKind int

const (
	opWindow  opKind = iota // g.Observe after a window of F failed out of R resolved
	opReset                 // g.Observe(F, R) with a counter below its previous value
	opOffer                 // g.Offer()
	opLastBad               // g.LastBad()
	opDecide                // Decide(cfg, Frac, Current, LastBad)
)

// op is one step. A window is given by its deltas so that shrinking it
// keeps the counters going forward; the replay adds them up.
type op struct {
	Kind                   opKind
	F, R                   uint64  // opWindow: the window's failed and resolved attempts; opReset: the new counters
	Frac, Current, LastBad float64 // opDecide
}

type script = check.Script[Config, op]

// judge says what a check compares on each Observe.
type judge int

const (
	// full compares the whole decision with the model's.
	full judge = iota
	// classes compares only how the window was read (clean, hold or
	// breach), and that a window without evidence changes nothing,
	// against the implementation's own previous offer and memory.
	classes
	// memory compares only LastBad, against a memory that follows the
	// implementation's own offers: breaches set it, streaks clear it.
	memory
)

// run is the replay's state.
type run struct {
	impl  Impl
	s     script
	j     judge
	low   bool // Decide calls with frac <= Low only need a clean move (dead-band)
	g     Governor
	m     *model
	cumF  uint64
	cumR  uint64
	prev  decision // the implementation's committed offer and memory
	mem   memoryModel
	trace check.Trace
}

// memoryModel is the congestion memory alone, driven by the offers the
// implementation committed.
type memoryModel struct {
	lastBad float64
	streak  int
}

func usesGovernor(s script) bool {
	for _, o := range s.Ops {
		if o.Kind != opDecide {
			return true
		}
	}
	return false
}

func configString(c Config) string {
	return fmt.Sprintf("cfg = Config{Floor: %s, Ceiling: %s, Start: %s, Low: %s, High: %s}", f(c.Floor), f(c.Ceiling), f(c.Start), f(c.Low), f(c.High))
}

// f formats an argument exactly (shortest representation), so a learner can
// paste it.
func f(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// v formats a result: 10 significant digits, enough to show a difference
// beyond tol.
func v(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

var actionNames = [...]string{Hold: "Hold", Double: "Double", BackOff: "BackOff", Recover: "Recover", Probe: "Probe"}

func (a Action) String() string {
	if a >= 0 && int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "Action(" + strconv.Itoa(int(a)) + ")"
}

func (d decision) String() string {
	return fmt.Sprintf("{Action: %v, Offer: %s, LastBad: %s}", d.Action, v(d.Offer), v(d.LastBad))
}

func (d decision) same(o decision) bool {
	return d.Action == o.Action && near(d.Offer, o.Offer) && near(d.LastBad, o.LastBad)
}

func graded(d Decision) decision { return decision{d.Action, d.Offer, d.LastBad} }

// replay runs s against a fresh implementation and the model, stopping at
// the first step where they differ.
func replay(impl Impl, s script, j judge, low bool) check.Trace {
	r := &run{impl: impl, s: s, j: j, low: low, m: newModel(s.Setup)}
	r.trace.Setup = configString(s.Setup)
	if usesGovernor(s) {
		r.trace.Setup = "New(cfg) with " + r.trace.Setup
		g, p := check.Call(func() Governor { return impl.New(s.Setup) })
		if p != nil {
			r.trace.SetupPanic(p)
			return r.trace
		}
		r.g = g
	}
	r.prev = decision{Hold, r.m.offer, 0}
	for _, o := range s.Ops {
		if !r.step(o) {
			break
		}
	}
	return r.trace
}

// step replays one op and reports whether to go on.
func (r *run) step(o op) bool {
	t := &r.trace
	switch o.Kind {
	case opDecide:
		call := fmt.Sprintf("Decide(cfg, frac=%s, current=%s, lastBad=%s)", f(o.Frac), f(o.Current), f(o.LastBad))
		got, p := check.Call(func() Decision { return r.impl.Decide(r.s.Setup, o.Frac, o.Current, o.LastBad) })
		want := decide(r.s.Setup, o.Frac, o.Current, o.LastBad)
		if r.low && o.Frac <= r.s.Setup.Low {
			const w = "a clean move (Double, Recover or Probe): frac <= Low is a clean window"
			if p == nil && got.Action != Hold {
				return t.Step(call, w, w, nil)
			}
			return t.Step(call, graded(got).String(), w, p)
		}
		return compare(t, call, graded(got), want, p)

	case opOffer:
		got, p := check.Call(func() float64 { return r.g.Offer() })
		return compareFloat(t, "Offer()", got, r.m.offer, p)

	case opLastBad:
		got, p := check.Call(func() float64 { return r.g.LastBad() })
		return compareFloat(t, "LastBad()", got, r.m.lastBad, p)
	}

	var call string
	if o.Kind == opReset {
		r.cumF, r.cumR = o.F, o.R
		call = fmt.Sprintf("Observe(cumFailures=%s, cumResolved=%s) [counters went back: a reset]", check.U(r.cumF), check.U(r.cumR))
	} else {
		r.cumF, r.cumR = check.Saturating(r.cumF, o.F), check.Saturating(r.cumR, o.R)
		w := fmt.Sprintf("%s of %s failed", check.U(o.F), check.U(o.R))
		if o.R == 0 {
			w = "no resolved attempts"
		}
		call = fmt.Sprintf("Observe(cumFailures=%s, cumResolved=%s) [window: %s]", check.U(r.cumF), check.U(r.cumR), w)
	}
	cumF, cumR := r.cumF, r.cumR
	tk := r.m.observe(cumF, cumR)
	gotD, p := check.Call(func() Decision { return r.g.Observe(cumF, cumR) })
	got := graded(gotD)
	switch r.j {
	case classes:
		return r.judgeClass(call, tk, got, p)
	case memory:
		return r.judgeMemory(call, tk, got, p)
	}
	return compare(t, call, got, tk.after, p)
}

func compare(t *check.Trace, call string, got, want decision, p *check.Panic) bool {
	if p == nil && got.same(want) {
		return t.Step(call, want.String(), want.String(), nil)
	}
	return t.Step(call, got.String(), want.String(), p)
}

func compareFloat(t *check.Trace, call string, got, want float64, p *check.Panic) bool {
	if p == nil && near(got, want) {
		return t.Step(call, v(want), v(want), nil)
	}
	return t.Step(call, v(got), v(want), p)
}

var kindWords = map[kind]string{
	clean:  "a clean-window move (Double, Recover or Probe): the window's frac %s <= Low",
	band:   "Hold: the window's frac %s is in the dead band",
	breach: "BackOff: the window's frac %s > High",
}

func classOf(a Action) kind {
	switch a {
	case Hold:
		return band
	case BackOff:
		return breach
	}
	return clean
}

// judgeClass checks how the window was read.
func (r *run) judgeClass(call string, tk tick, got decision, p *check.Panic) bool {
	t := &r.trace
	var ok bool
	var want string
	switch tk.kind {
	case empty, reset:
		unchanged := decision{Hold, r.prev.Offer, r.prev.LastBad}
		ok = got.same(unchanged)
		what := "no resolved attempts in this window"
		if tk.kind == reset {
			what = "a counter went backwards: a reset, the new baseline"
		}
		want = fmt.Sprintf("%v (%s: hold, Offer and LastBad unchanged)", unchanged, what)
	default:
		ok = got.Action >= Hold && got.Action <= Probe && classOf(got.Action) == classOf(tk.after.Action)
		want = fmt.Sprintf(kindWords[tk.kind], v(tk.frac))
	}
	r.prev = got
	if p == nil && ok {
		return t.Step(call, want, want, nil)
	}
	return t.Step(call, got.String(), want, p)
}

// judgeMemory checks LastBad against the memory model, fed the offer the
// implementation committed before this window.
func (r *run) judgeMemory(call string, tk tick, got decision, p *check.Panic) bool {
	t := &r.trace
	before := r.prev.Offer
	mm := &r.mem
	var why string
	switch tk.kind {
	case breach:
		mm.lastBad, mm.streak = before, 0
		why = fmt.Sprintf("a breach remembers the offer it failed at, %s", v(before))
	case clean:
		if mm.lastBad > 0 && edgy(before, mm.lastBad) {
			// Whether this window is evidence hangs on a rounding
			// error of the implementation's own offer: nothing can
			// be judged from here on.
			return false
		}
		evidence := mm.lastBad > 0 && before >= mm.lastBad
		var clears bool
		mm.streak, clears = memoryClearStep(mm.streak, evidence)
		switch {
		case clears:
			why = fmt.Sprintf("the %d. clean window in a row at or above LastBad %s clears the memory", MemoryClearStreak, v(mm.lastBad))
			mm.lastBad = 0
		case evidence:
			why = fmt.Sprintf("clean at %s >= LastBad %s: %d of %d windows in a row", v(before), v(mm.lastBad), mm.streak, MemoryClearStreak)
		case mm.lastBad > 0:
			why = fmt.Sprintf("clean, but at %s < LastBad %s: no evidence, the streak starts again", v(before), v(mm.lastBad))
		default:
			why = "no memory to clear"
		}
	default:
		mm.streak = 0
		why = "a window without evidence keeps the memory and starts the streak again"
	}
	r.prev = got
	want := fmt.Sprintf("LastBad %s (%s)", v(mm.lastBad), why)
	if p == nil && near(got.LastBad, mm.lastBad) {
		return t.Step(call, want, want, nil)
	}
	return t.Step(call, got.String(), want, p)
}

// domain says which corner of the input space a check explores. Its rules
// hold for every script it generates and every script the shrinker tries,
// so a failure found in one corner stays in it.
type domain struct {
	setup   func(r *rand.Rand) Config
	setupOK func(c Config) bool
	// next draws the next op given the model's state, or reports false
	// if it finds none.
	next func(r *rand.Rand, c Config, m *model, cumF, cumR uint64) (op, bool)
	// opOK reports whether an op keeps to the rules; t is the model's
	// tick for Observe ops (nil otherwise).
	opOK   func(c Config, o op, t *tick, m *model) bool
	judge  judge
	low    bool
	maxOps int
}

// valid returns how many leading ops of s keep to d's rules, replaying s
// on the model; -1 if the setup does not.
func (d domain) valid(s script) int {
	c := s.Setup
	if !configOK(c) || d.setupOK != nil && !d.setupOK(c) {
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

func (d domain) gen(r *rand.Rand, size int) script {
	var c Config
	for {
		c = d.setup(r)
		if configOK(c) && (d.setupOK == nil || d.setupOK(c)) {
			break
		}
	}
	m := newModel(c)
	var cumF, cumR uint64
	var ops []op
	for range check.Ops(r, size, 1, d.maxOps) {
		o, ok := d.next(r, c, m, cumF, cumR)
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
	s := script{Setup: c, Ops: ops}
	s.Ops = s.Ops[:max(0, d.valid(s))]
	return s
}

func (d domain) property(impl Impl) check.Property[Config, op] {
	return check.Property[Config, op]{
		Gen:         d.gen,
		Valid:       func(s script) bool { return d.valid(s) == len(s.Ops) },
		ShrinkSetup: shrinkConfig,
		ShrinkOp:    shrinkOp,
		Replay:      func(s script) check.Trace { return replay(impl, s, d.judge, d.low) },
	}
}

// Shrinking floats: a candidate is simpler when it prints shorter, or as
// short and smaller. Every candidate is strictly simpler, so shrinking ends.

func simpler(c, x float64) bool {
	lc, lx := len(f(c)), len(f(x))
	return lc < lx || lc == lx && math.Abs(c) < math.Abs(x)
}

func simplerFloats(x float64, cands ...float64) []float64 {
	var out []float64
	for _, c := range cands {
		if !math.IsNaN(c) && simpler(c, x) {
			out = append(out, c)
		}
	}
	return out
}

// rounded returns x rounded to 1, 2 and 3 significant digits.
func rounded(x float64) []float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	var out []float64
	for _, p := range []int{1, 2, 3} {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', p, 64), 64)
		out = append(out, r)
	}
	return out
}

func shrinkConfig(c Config) []Config {
	var out []Config
	add := func(set func(*Config, float64), x float64, cands ...float64) {
		for _, y := range simplerFloats(x, append(cands, rounded(x)...)...) {
			n := c
			set(&n, y)
			out = append(out, n)
		}
	}
	add(func(c *Config, y float64) { c.Start = y }, c.Start, 0, c.Floor, c.Ceiling)
	add(func(c *Config, y float64) { c.Floor = y }, c.Floor, 1, 10)
	add(func(c *Config, y float64) { c.Ceiling = y }, c.Ceiling, 100, 1000, 10)
	add(func(c *Config, y float64) { c.Low = y }, c.Low, 0, 0.01)
	add(func(c *Config, y float64) { c.High = y }, c.High, 0.05, 0.1, c.Low)
	return out
}

func shrinkOp(o op) []op {
	var out []op
	switch o.Kind {
	case opWindow, opReset:
		pairs := [][2]uint64{{0, 1}, {1, 1}, {0, 100}, {o.F / 10, o.R / 10}, {o.F / 2, o.R / 2}}
		for _, fv := range check.Smaller(o.F) {
			pairs = append(pairs, [2]uint64{fv, o.R})
		}
		for _, rv := range check.Smaller(o.R) {
			pairs = append(pairs, [2]uint64{o.F, rv})
		}
		for _, p := range pairs {
			if p[0]+p[1] < o.F+o.R {
				n := o
				n.F, n.R = p[0], p[1]
				out = append(out, n)
			}
		}
	case opDecide:
		for _, y := range simplerFloats(o.Frac, append([]float64{0, 0.5, 1, 0.1, 0.01, 0.05}, rounded(o.Frac)...)...) {
			n := o
			n.Frac = y
			out = append(out, n)
		}
		for _, y := range simplerFloats(o.Current, append([]float64{1, 10, 100, o.LastBad * 0.75, o.LastBad}, rounded(o.Current)...)...) {
			n := o
			n.Current = y
			out = append(out, n)
		}
		for _, y := range simplerFloats(o.LastBad, append([]float64{0, 100, 10, o.Current}, rounded(o.LastBad)...)...) {
			n := o
			n.LastBad = y
			out = append(out, n)
		}
	}
	return out
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
func observeNext(w func(m *model) map[kind]float64, strict bool) func(*rand.Rand, Config, *model, uint64, uint64) (op, bool) {
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
