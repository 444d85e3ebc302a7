package gradient2

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"

	"ratelab/grader/check"
)

// queueKind names the QueueSize functions a setup can use, so that a
// setup stays a plain value that prints and shrinks.
type queueKind int

const (
	queueNil   queueKind = iota // nil: 4
	queueZero                   // 0
	queueEight                  // 8
	queueSqrt                   // sqrt(limit)
	queueTenth                  // limit/10
)

// byLimit reports whether the queue allowance depends on the limit.
func (q queueKind) byLimit() bool { return q == queueSqrt || q == queueTenth }

var queueFuncs = map[queueKind]struct {
	src string
	fn  func(int) float64
}{
	queueNil:   {"nil", nil},
	queueZero:  {"func(int) float64 { return 0 }", func(int) float64 { return 0 }},
	queueEight: {"func(int) float64 { return 8 }", func(int) float64 { return 8 }},
	queueSqrt:  {"func(l int) float64 { return math.Sqrt(float64(l)) }", func(l int) float64 { return math.Sqrt(float64(l)) }},
	queueTenth: {"func(l int) float64 { return float64(l) / 10 }", func(l int) float64 { return float64(l) / 10 }},
}

// setup is New's Config, as plain values.
type setup struct {
	Initial, Min, Max float64
	Smoothing, Tol    float64
	Window            int
	Queue             queueKind
}

func (s setup) config() Config {
	return Config{
		InitialLimit: s.Initial, MinLimit: s.Min, MaxLimit: s.Max,
		Smoothing: s.Smoothing, RTTTolerance: s.Tol, LongWindow: s.Window,
		QueueSize: queueFuncs[s.Queue].fn,
	}
}

func (s setup) String() string {
	return fmt.Sprintf("New(Config{InitialLimit: %s, MinLimit: %s, MaxLimit: %s, Smoothing: %s, RTTTolerance: %s, LongWindow: %d, QueueSize: %s})",
		f(s.Initial), f(s.Min), f(s.Max), f(s.Smoothing), f(s.Tol), s.Window, queueFuncs[s.Queue].src)
}

// setupOK is what every domain assumes: the contract's valid configs, with
// limits small enough that int(limit) is exact.
func setupOK(s setup) bool {
	return s.Min >= 0 && s.Min <= s.Initial && s.Initial <= s.Max && s.Max <= 1e9 &&
		s.Smoothing >= 0 && s.Smoothing <= 1 && s.Tol >= 1 && s.Tol <= 10 && s.Window >= 1 && s.Window <= 100_000
}

// op is Times calls of Update(RTT, Inflight), or one call of Limit().
type op struct {
	Limit    bool
	RTT      uint64
	Inflight int
	Times    int // >= 1
}

type script = check.Script[setup, op]

func f(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// replay runs s against a fresh implementation and a fresh model, stopping
// at the first call where they differ.
func replay(newImpl New, s script) check.Trace {
	t := check.Trace{Setup: s.Setup.String()}
	cfg := s.Setup.config()
	l, p := check.Call(func() Limit { return newImpl(cfg) })
	if p != nil {
		t.SetupPanic(p)
		return t
	}
	m := newModel(cfg)
	for _, o := range s.Ops {
		if o.Limit {
			got, p := check.Call(func() int { return l.Limit() })
			if !step(&t, "Limit()", got, m.est, p) {
				return t
			}
			continue
		}
		for i := range max(o.Times, 1) {
			got, p := check.Call(func() int { return l.Update(o.RTT, o.Inflight) })
			m.update(o.RTT, o.Inflight)
			call := fmt.Sprintf("Update(rttNs=%s, inflight=%d)", check.U(o.RTT), o.Inflight)
			last := i == max(o.Times, 1)-1
			ok := p == nil && accepts(got, m.est)
			if !ok || last {
				// A repeated call is one step: shown once, with how
				// many times it was made up to here.
				if i > 0 {
					call += fmt.Sprintf(" ×%d", i+1)
				}
				if !step(&t, call, got, m.est, p) {
					return t
				}
			}
		}
	}
	return t
}

// step records one result, equal to the model's when within tolerance.
func step(t *check.Trace, call string, got int, est float64, p *check.Panic) bool {
	want := fmt.Sprintf("%d (limit %s)", int(est), strconv.FormatFloat(est, 'g', 8, 64))
	if p == nil && accepts(got, est) {
		return t.Step(call, want, want, nil)
	}
	return t.Step(call, strconv.Itoa(got), want, p)
}

// rules restrict the samples of a domain; see valid.
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
	moves := !s.appLimited
	switch {
	case r.noAppLimited && s.appLimited,
		r.noDecay && s.decays,
		r.decayIsApp && s.decays != s.appLimited,
		r.inRange && moves && (s.raw < 0.5 || s.raw > 1),
		r.noUpperMid && moves && s.raw > 0.5 && s.raw < 1,
		r.noRTTRise && moves && s.raw > 1,
		r.noLimitClamp && moves && s.est != s.smoothed:
		return false
	}
	return true
}

// domain says which corner of the input space a check explores. Its rules
// hold for every script it generates and every script its shrinker tries.
type domain struct {
	setup   func(r *rand.Rand) setup
	setupOK func(s setup) bool
	// rtt and inflight draw the next sample given the model's state
	// (m.long is the long RTT before this sample; m.seen how many
	// samples it has).
	rtt      func(r *rand.Rand, m *model) uint64
	inflight func(r *rand.Rand, m *model, rtt uint64) int
	repeat   float64 // chance that an op repeats its sample
	// fill starts every script with the warm-up done: one RTT at least
	// 10 times, so that every way of warming up (a mean, an average
	// started at the first sample) gives the same long RTT, and a
	// warm-up mistake does not show outside the warmup check.
	fill   bool
	limit  float64 // chance of a Limit() call
	rules  rules
	maxOps int
}

// valid returns how many leading ops of s keep to d's rules, replaying s
// on the model; -1 if the setup does not.
func (d domain) valid(s script) int {
	if !setupOK(s.Setup) || d.setupOK != nil && !d.setupOK(s.Setup) {
		return -1
	}
	cfg := s.Setup.config()
	byLimit := s.Setup.Queue.byLimit()
	m := newModel(cfg)
	var first uint64
	if d.fill && (len(s.Ops) == 0 || s.Ops[0].Limit || s.Ops[0].Times < warmup) {
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
			smp := m.update(o.RTT, o.Inflight)
			if smp.edgy(byLimit, o.Inflight) || !d.rules.ok(smp) {
				return i
			}
		}
	}
	return len(s.Ops)
}

// gen draws a script, choosing each sample with the model's state in view,
// trying a few candidates for one that keeps to the rules, and keeps the
// longest valid prefix.
func (d domain) gen(r *rand.Rand, size int) script {
	var st setup
	for {
		st = d.setup(r)
		if setupOK(st) && (d.setupOK == nil || d.setupOK(st)) {
			break
		}
	}
	cfg := st.config()
	byLimit := st.Queue.byLimit()
	m := newModel(cfg)
	var ops []op
	var first uint64
	if d.fill {
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
				if smp := try.update(o.RTT, o.Inflight); smp.edgy(byLimit, o.Inflight) || !d.rules.ok(smp) {
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
				smp := try.update(o.RTT, o.Inflight)
				if smp.edgy(byLimit, o.Inflight) || !d.rules.ok(smp) {
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
	s := script{Setup: st, Ops: ops}
	s.Ops = s.Ops[:max(0, d.valid(s))]
	return s
}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return check.Property[setup, op]{
		Gen:         d.gen,
		Valid:       func(s script) bool { return d.valid(s) == len(s.Ops) },
		ShrinkSetup: shrinkSetup,
		ShrinkOp:    shrinkOp,
		Replay:      func(s script) check.Trace { return replay(newImpl, s) },
	}
}

// Shrinking: a float candidate is simpler when it prints shorter, or as
// short and smaller, so shrinking ends.

func simpler(c, x float64) bool {
	lc, lx := len(f(c)), len(f(x))
	return lc < lx || lc == lx && math.Abs(c) < math.Abs(x)
}

func rounded(x float64) []float64 {
	var out []float64
	for _, p := range []int{1, 2, 3} {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', p, 64), 64)
		out = append(out, r)
	}
	return out
}

func shrinkSetup(s setup) []setup {
	var out []setup
	add := func(set func(*setup, float64), x float64, cands ...float64) {
		for _, c := range append(cands, rounded(x)...) {
			if simpler(c, x) {
				n := s
				set(&n, c)
				out = append(out, n)
			}
		}
	}
	if s.Queue != queueNil {
		n := s
		n.Queue = queueNil
		out = append(out, n)
		if s.Queue != queueZero {
			n.Queue = queueZero
			out = append(out, n)
		}
	}
	add(func(s *setup, c float64) { s.Initial = c }, s.Initial, 20, 100, 1000, s.Min, s.Max)
	add(func(s *setup, c float64) { s.Min = c }, s.Min, 0, 1, 20)
	add(func(s *setup, c float64) { s.Max = c }, s.Max, 200, 1000, 10_000, s.Initial)
	add(func(s *setup, c float64) { s.Smoothing = c }, s.Smoothing, 1, 0.5, 0.2)
	add(func(s *setup, c float64) { s.Tol = c }, s.Tol, 1, 2, 1.5)
	for _, w := range check.Smaller(uint64(s.Window)) {
		if w >= 1 {
			n := s
			n.Window = int(w)
			out = append(out, n)
		}
	}
	return out
}

func shrinkOp(o op) []op {
	if o.Limit {
		return nil
	}
	var out []op
	for _, t := range check.Smaller(uint64(o.Times)) {
		if t >= 1 {
			n := o
			n.Times = int(t)
			out = append(out, n)
		}
	}
	for _, c := range rounded(float64(o.RTT)) {
		if c >= 1 && simpler(c, float64(o.RTT)) {
			n := o
			n.RTT = uint64(c)
			out = append(out, n)
		}
	}
	for _, c := range append([]float64{0, 1, 10, 100, 1000}, rounded(float64(o.Inflight))...) {
		if simpler(c, float64(o.Inflight)) {
			n := o
			n.Inflight = int(c)
			out = append(out, n)
		}
	}
	return out
}
