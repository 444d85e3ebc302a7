package gradient2

import (
	"math"

	"ratelab/grader/check"
)

// The model: the contract's Gradient2 limit, one sample at a time, with
// every intermediate value kept for the domains' rules. Written for
// clarity; it shares no code with any implementation.

// warmup is the number of samples the long RTT plainly averages.
const warmup = 10

type model struct {
	cfg Config
	est float64
	// exact: est was assigned (InitialLimit, or a clamp to MinLimit or
	// MaxLimit) rather than computed, so every implementation holds the
	// very same float.
	exact bool
	// The long RTT: samples seen (up to warmup), their sum, the value.
	seen      int
	sum, long float64
}

func newModel(cfg Config) *model { return &model{cfg: cfg, est: cfg.InitialLimit, exact: true} }

// sample is what the model computed for one Update.
type sample struct {
	estBefore   float64
	exactBefore bool
	queue       float64
	short, long float64 // long as used by this sample (before any decay)
	decays      bool
	appLimited  bool
	raw         float64 // RTTTolerance*long/short, before the clamp
	gradient    float64
	smoothed    float64 // before the clamp to [MinLimit, MaxLimit]
	est         float64
}

func (m *model) update(rttNs uint64, inflight int) sample {
	s := sample{estBefore: m.est, exactBefore: m.exact}
	s.queue = 4
	if m.cfg.QueueSize != nil {
		s.queue = m.cfg.QueueSize(int(m.est))
	}
	s.short = float64(rttNs)

	// The long RTT: a plain mean of the first samples, then an
	// exponential average.
	if m.seen < warmup {
		m.seen++
		m.sum += s.short
		m.long = m.sum / float64(m.seen)
	} else {
		factor := 2 / (float64(m.cfg.LongWindow) + 1)
		m.long = (1-factor)*m.long + factor*s.short
	}
	s.long = m.long
	if s.long/s.short > 2 {
		s.decays = true
		m.long = 0.95 * m.long // for the next sample only
	}

	s.raw = m.cfg.RTTTolerance * s.long / s.short
	s.gradient = math.Max(0.5, math.Min(1, s.raw))
	if float64(inflight) < m.est/2 {
		s.appLimited = true
		s.est = m.est
		return s
	}
	target := m.est*s.gradient + s.queue
	s.smoothed = (1-m.cfg.Smoothing)*m.est + m.cfg.Smoothing*target
	s.est = math.Min(math.Max(s.smoothed, m.cfg.MinLimit), m.cfg.MaxLimit)
	m.est, m.exact = s.est, s.est != s.smoothed
	return s
}

// edgy reports whether the outcome of the sample hangs on a comparison
// that a correct implementation rounding differently could decide the
// other way. byLimit says whether QueueSize depends on its argument.
func (s sample) edgy(byLimit bool, inflight int) bool {
	if math.Abs(s.long/s.short-2) <= 2*check.Tol {
		return true
	}
	if d := math.Abs(float64(inflight) - s.estBefore/2); d <= check.Tol*s.estBefore && !(s.exactBefore && d == 0) {
		return true
	}
	if byLimit && !s.exactBefore {
		if r := math.Round(s.estBefore); r != 0 && check.Near(r, s.estBefore) {
			return true
		}
	}
	return false
}

// accepts reports whether an implementation's int(limit) agrees with the
// model's est within check.Tol.
func accepts(got int, est float64) bool {
	return got == int(est) || got == int(est*(1-check.Tol)) || got == int(est*(1+check.Tol))
}
