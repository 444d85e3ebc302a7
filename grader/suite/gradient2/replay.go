package gradient2

import (
	"fmt"
	"math"
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

// setup is New's Config, as plain values. It is also how a Config travels
// to the grading child (see API): QueueSize by the name of one of the
// suite's own functions.
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
		check.F(s.Initial), check.F(s.Min), check.F(s.Max), check.F(s.Smoothing), check.F(s.Tol), s.Window, queueFuncs[s.Queue].src)
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

func replay(newImpl New, s script) check.Trace {
	cfg := s.Setup.config()
	t, l, ok := check.Begin(s.Setup.String(), func() Limit { return newImpl(cfg) })
	t.Full = s.Full
	if !ok {
		return t
	}
	m := newModel(cfg)
	for _, o := range s.Ops {
		if o.Limit {
			got, p := check.Call(func() int { return l.Limit() })
			if !step(&t, "Limit()", got, m.Est, p) {
				return t
			}
			continue
		}
		for i := range max(o.Times, 1) {
			got, p := check.Call(func() int { return l.Update(o.RTT, o.Inflight) })
			m.Update(o.RTT, o.Inflight)
			call := fmt.Sprintf("Update(rttNs=%s, inflight=%d)", check.U(o.RTT), o.Inflight)
			last := i == max(o.Times, 1)-1
			ok := p == nil && accepts(got, m.Est)
			if !ok || last {
				// A repeated call is one step: shown once, with how
				// many times it was made up to here.
				if i > 0 {
					call += fmt.Sprintf(" ×%d", i+1)
				}
				if !step(&t, call, got, m.Est, p) {
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
