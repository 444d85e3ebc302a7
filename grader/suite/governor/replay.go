package governor

import (
	"fmt"
	"strconv"

	"ratelab/grader/check"
	gm "ratelab/grader/model"
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

// setup is a script's Config and how its replay judges the calls: the
// judge of the check whose domain drew it. It travels with the script so
// that a mistake's model (see mistakes) is replayed exactly as the
// learner's code was, and gives the very same answers where it makes the
// same mistake.
type setup struct {
	Config
	judge judge
	low   bool // Decide calls with frac <= Low only need a clean move (dead-band)
}

type script = check.Script[setup, op]

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
	return fmt.Sprintf("cfg = Config{Floor: %s, Ceiling: %s, Start: %s, Low: %s, High: %s}", check.F(c.Floor), check.F(c.Ceiling), check.F(c.Start), check.F(c.Low), check.F(c.High))
}

// v formats a result: 10 significant digits, enough to show a difference
// beyond check.Tol.
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
	return d.Action == o.Action && check.Near(d.Offer, o.Offer) && check.Near(d.LastBad, o.LastBad)
}

func graded(d Decision) decision { return decision{d.Action, d.Offer, d.LastBad} }

// replay runs s against a fresh implementation and the model, stopping at
// the first step where they differ, judging as s's setup says.
func replay(impl Impl, s script) check.Trace {
	cfg := s.Setup.Config
	r := &run{impl: impl, s: s, j: s.Setup.judge, low: s.Setup.low, m: newModel(cfg)}
	r.trace.Setup = configString(cfg)
	if usesGovernor(s) {
		var ok bool
		if r.trace, r.g, ok = check.Begin("New(cfg) with "+r.trace.Setup, func() Governor { return impl.New(cfg) }); !ok {
			return r.trace
		}
	}
	r.trace.Full = s.Full
	r.prev = decision{Hold, r.m.Offer, 0}
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
		call := fmt.Sprintf("Decide(cfg, frac=%s, current=%s, lastBad=%s)", check.F(o.Frac), check.F(o.Current), check.F(o.LastBad))
		got, p := check.Call(func() Decision { return r.impl.Decide(r.s.Setup.Config, o.Frac, o.Current, o.LastBad) })
		want := decide(r.s.Setup.Config, o.Frac, o.Current, o.LastBad)
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
		return compareFloat(t, "Offer()", got, r.m.Offer, p)

	case opLastBad:
		got, p := check.Call(func() float64 { return r.g.LastBad() })
		return compareFloat(t, "LastBad()", got, r.m.LastBad, p)
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
	if p == nil && check.Near(got, want) {
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
		mm.streak, clears = gm.MemoryClearStep(mm.streak, evidence)
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
	if p == nil && check.Near(got.LastBad, mm.lastBad) {
		return t.Step(call, want, want, nil)
	}
	return t.Step(call, got.String(), want, p)
}
