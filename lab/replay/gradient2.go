package replay

import (
	"fmt"
	"math"
	"strconv"

	gm "ratelab/grader/model"
	"ratelab/grader/report"
	"ratelab/lab/adaptive"
)

// The week 4 Gradient2 limit: the limit, and the long and short RTTs it
// follows.
func init() {
	register(Exercise{ID: "gradient2", Build: buildGradient2, Model: modelGradient2})
}

// queueSizes are the QueueSize functions a report can carry, by their
// text: nil, and the grader's four. Another function cannot be replayed
// (the report carries only its text).
var queueSizes = map[string]func(int) float64{
	"nil":                            nil,
	"func(int) float64 { return 0 }": func(int) float64 { return 0 },
	"func(int) float64 { return 8 }": func(int) float64 { return 8 },
	"func(l int) float64 { return math.Sqrt(float64(l)) }": func(l int) float64 { return math.Sqrt(float64(l)) },
	"func(l int) float64 { return float64(l) / 10 }":       func(l int) float64 { return float64(l) / 10 },
}

// gradient2Setup reads New(Config{…, QueueSize: …}). A config outside the
// contract is refused as the reference would by panicking.
func gradient2Setup(c report.Call) (cfg adaptive.LimitConfig, queue func(int) float64, err error) {
	cfg, err = gradient2Config(c)
	if err != nil {
		return cfg, nil, err
	}
	s, _ := structArg(c, "arg1")
	text, _ := s.Args["QueueSize"].(string)
	if text == "" {
		text = "nil"
	}
	queue, ok := queueSizes[text]
	if !ok {
		return cfg, nil, fmt.Errorf("New: QueueSize %s is not one of the functions a replay knows", text)
	}
	return cfg, queue, nil
}

func gradient2Config(c report.Call) (cfg adaptive.LimitConfig, err error) {
	if err = want(c, "New"); err != nil {
		return cfg, err
	}
	s, err := structArg(c, "arg1")
	if err != nil {
		return cfg, err
	}
	for _, f := range []struct {
		name string
		to   *float64
	}{{"InitialLimit", &cfg.InitialLimit}, {"MinLimit", &cfg.MinLimit}, {"MaxLimit", &cfg.MaxLimit}, {"Smoothing", &cfg.Smoothing}, {"RTTTolerance", &cfg.RTTTolerance}} {
		if *f.to, err = argFloat(s, f.name); err != nil {
			return cfg, err
		}
	}
	w, err := argU64(s, "LongWindow")
	if err != nil {
		return cfg, err
	}
	if w < 1 || w > math.MaxInt32 || !(cfg.MinLimit <= cfg.MaxLimit) || !(cfg.Smoothing >= 0 && cfg.Smoothing <= 1) || !(cfg.RTTTolerance >= 1) {
		return cfg, fmt.Errorf("New: %+v is outside the contract: nothing to replay", s.Args)
	}
	cfg.LongWindow = int(w)
	return cfg, nil
}

// gradient2API is what a replay calls.
type gradient2API interface {
	Update(rttNs uint64, inflight int) int
	Limit() int
}

func doGradient2(l gradient2API, c report.Call) (string, error) {
	switch c.Name {
	case "Update":
		n, err := times(c)
		if err != nil {
			return "", err
		}
		rtt, err := argU64(c, "rttNs")
		if err != nil {
			return "", err
		}
		in, err := argInt(c, "inflight")
		if err != nil {
			return "", err
		}
		var got int
		for range n {
			got = l.Update(rtt, in)
		}
		return strconv.Itoa(got), nil
	case "Limit":
		return strconv.Itoa(l.Limit()), nil
	}
	return "", want(c, "Update", "Limit")
}

// argInt reads the int argument name of c, which may be negative.
func argInt(c report.Call, name string) (int, error) {
	if s, ok := c.Args[name].(string); ok {
		if n, err := strconv.ParseInt(s, 10, strconv.IntSize); err == nil {
			return int(n), nil
		}
	}
	f, err := argFloat(c, name)
	if err != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<53 {
		return 0, fmt.Errorf("%s: %s = %v is not an int", c.Name, name, c.Args[name])
	}
	return int(f), nil
}

type gradient2Calls struct{ l adaptive.Limit }

func (x gradient2Calls) Do(c report.Call) (string, error) { return doGradient2(x.l, c) }

// buildGradient2 builds with Week4.NewLimit, which takes QueueSize, or
// without one with the lab's adaptive.Impl.
func buildGradient2(impls Impls, setup report.Call) (Instance, error) {
	cfg, queue, err := gradient2Setup(setup)
	if err != nil {
		return nil, err
	}
	switch {
	case impls.Week4.NewLimit != nil:
		return gradient2Calls{impls.Week4.NewLimit(cfg, queue)}, nil
	case queue == nil && impls.Adaptive.NewLimit != nil:
		return gradient2Calls{impls.Adaptive.NewLimit(cfg)}, nil
	}
	return nil, errMissing(impls.Adaptive.Missing)
}

// Gradient2Model is Gradient2's contract as plain state (the grader's
// model.Gradient2), with what its latest sample computed.
type Gradient2Model struct {
	gm.Gradient2
	Last gm.Gradient2Sample // the latest sample; zero before the first
}

// NewGradient2Model is New(cfg) with cfg's QueueSize queueSize (nil: 4):
// the limit at InitialLimit, no samples.
func NewGradient2Model(cfg adaptive.LimitConfig, queueSize func(limit int) float64) *Gradient2Model {
	return &Gradient2Model{Gradient2: *gm.NewGradient2(gm.Gradient2Config{
		InitialLimit: cfg.InitialLimit, MinLimit: cfg.MinLimit, MaxLimit: cfg.MaxLimit,
		Smoothing: cfg.Smoothing, RTTTolerance: cfg.RTTTolerance, LongWindow: cfg.LongWindow, QueueSize: queueSize,
	})}
}

// Update takes one sample; an rtt of 0 is no sample (the reference's
// choice where the contract is silent: it returns the limit unchanged).
func (m *Gradient2Model) Update(rttNs uint64, inflight int) int {
	if rttNs != 0 {
		m.Last = m.Gradient2.Update(rttNs, inflight)
	}
	return int(m.Est)
}

// Limit returns int(limit).
func (m *Gradient2Model) Limit() int { return int(m.Est) }

func (m *Gradient2Model) Do(c report.Call) (string, error) { return doGradient2(m, c) }

// State is the limit against [MinLimit, MaxLimit], the long and short
// RTTs and the gradient the latest sample used.
func (m *Gradient2Model) State() []Field {
	limit := Field{Label: "limit", Text: floatText(m.Est) + " in [" + floatText(m.Cfg.MinLimit) + ", " + floatText(m.Cfg.MaxLimit) + "]", Max: 1, Value: 1}
	if span := m.Cfg.MaxLimit - m.Cfg.MinLimit; span > 0 {
		limit.Value = (m.Est - m.Cfg.MinLimit) / span
	}
	if m.Seen == 0 {
		return []Field{limit, {Label: "long RTT", Text: "no sample yet"}, {Label: "short RTT", Text: "no sample yet"}}
	}
	long := Field{Label: "long RTT", Text: nsFloat(m.Last.Long) + " used; " + nsFloat(m.Long) + " kept"}
	if m.Seen < gm.Gradient2Warmup {
		long.Text += fmt.Sprintf(" (mean of the first %d samples)", m.Seen)
	}
	if m.Last.Decays {
		long.Text += " (decayed ×0.95: more than twice the short)"
	}
	grad := "gradient " + floatText(m.Last.Gradient) + " = clamp(" + floatText(m.Cfg.RTTTolerance) + " × long/short, 0.5, 1)"
	if m.Last.AppLimited {
		grad += "; app-limited: inflight < limit/2, the limit stays"
	} else {
		grad += "; queue allowance +" + floatText(m.Last.Queue)
	}
	return []Field{
		limit,
		long,
		{Label: "short RTT", Text: nsFloat(m.Last.Short) + " (long/short = " + floatText(m.Last.Long/m.Last.Short) + ")"},
		{Label: "gradient", Text: grad, Value: m.Last.Gradient, Max: 1},
	}
}

// nsFloat is a duration in ns, in ms when at least one.
func nsFloat(ns float64) string {
	if ns >= 1e6 {
		return strconv.FormatFloat(ns/1e6, 'g', 6, 64) + " ms"
	}
	return strconv.FormatFloat(ns, 'g', 6, 64) + " ns"
}

func modelGradient2(setup report.Call) (Model, error) {
	cfg, queue, err := gradient2Setup(setup)
	if err != nil {
		return nil, err
	}
	return NewGradient2Model(cfg, queue), nil
}
