package model

import (
	"math"

	"ratelab/lab/contract"
)

// Gradient2Config is the exercise's Config (lab/contract): QueueSize nil
// is a queue allowance of 4.
type Gradient2Config = contract.Gradient2Config

// Gradient2Warmup is the number of first samples the long RTT plainly
// averages.
const Gradient2Warmup = 10

// Gradient2 is the contract's Gradient2 limit (the doc of
// exercises/gradient2), one sample at a time: the estimated limit Est,
// and the long RTT (the mean of the first samples, Seen of them summing
// to Sum, then an exponential average; decayed by 0.95 after a sample it
// exceeded twice).
type Gradient2 struct {
	Cfg Gradient2Config
	Est float64
	// Exact says that Est was assigned (InitialLimit, or a clamp to
	// MinLimit or MaxLimit) rather than computed, so that every
	// implementation holds the very same float.
	Exact     bool
	Seen      int
	Sum, Long float64
}

// Gradient2Sample is what one Update computed, every intermediate value
// kept (for the grader's rules on what a sample may hang on, and for the
// lab's display).
type Gradient2Sample struct {
	EstBefore   float64
	ExactBefore bool
	Queue       float64 // the queue allowance
	Short       float64 // the sample's RTT
	Long        float64 // the long RTT as this sample used it (before any decay)
	Decays      bool    // the long RTT was more than twice the short: decayed for the next sample
	AppLimited  bool    // inflight < limit/2: the limit stays
	Raw         float64 // RTTTolerance×long/short, before the clamp to [0.5, 1]
	Gradient    float64
	Smoothed    float64 // the new limit before the clamp to [MinLimit, MaxLimit]
	Est         float64 // the new limit
}

// NewGradient2 is New(cfg): the limit at InitialLimit, no samples.
func NewGradient2(cfg Gradient2Config) *Gradient2 {
	return &Gradient2{Cfg: cfg, Est: cfg.InitialLimit, Exact: true}
}

// Update takes one sample.
func (m *Gradient2) Update(rttNs uint64, inflight int) Gradient2Sample {
	s := Gradient2Sample{EstBefore: m.Est, ExactBefore: m.Exact}
	s.Queue = 4
	if m.Cfg.QueueSize != nil {
		s.Queue = m.Cfg.QueueSize(int(m.Est))
	}
	s.Short = float64(rttNs)

	// The long RTT: a plain mean of the first samples, then an
	// exponential average.
	if m.Seen < Gradient2Warmup {
		m.Seen++
		m.Sum += s.Short
		m.Long = m.Sum / float64(m.Seen)
	} else {
		factor := 2 / (float64(m.Cfg.LongWindow) + 1)
		m.Long = (1-factor)*m.Long + factor*s.Short
	}
	s.Long = m.Long
	if s.Long/s.Short > 2 {
		s.Decays = true
		m.Long = 0.95 * m.Long // for the next sample only
	}

	s.Raw = m.Cfg.RTTTolerance * s.Long / s.Short
	s.Gradient = math.Max(0.5, math.Min(1, s.Raw))
	if float64(inflight) < m.Est/2 {
		s.AppLimited = true
		s.Est = m.Est
		return s
	}
	target := m.Est*s.Gradient + s.Queue
	s.Smoothed = (1-m.Cfg.Smoothing)*m.Est + m.Cfg.Smoothing*target
	s.Est = math.Min(math.Max(s.Smoothed, m.Cfg.MinLimit), m.Cfg.MaxLimit)
	m.Est, m.Exact = s.Est, s.Est != s.Smoothed
	return s
}
