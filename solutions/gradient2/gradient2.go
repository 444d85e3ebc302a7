package gradient2

import "strconv"

// warmupSamples is how many samples the long RTT averages plainly before
// it becomes an exponential average.
const warmupSamples = 10

// Config is a limit's fixed parameters. Limits are in requests in flight,
// RTTs in nanoseconds.
type Config struct {
	InitialLimit, MinLimit, MaxLimit float64                 // 20, 20, 200
	Smoothing                        float64                 // 0.2: weight of the new limit, in [0, 1]
	RTTTolerance                     float64                 // 1.5, >= 1: how much slower than the long RTT still counts as no queueing
	LongWindow                       int                     // 600: samples of the long RTT's exponential average
	QueueSize                        func(limit int) float64 // allowance added per sample, given int(limit); nil means 4
}

// DefaultConfig returns the defaults of Netflix's Gradient2Limit: an initial
// and minimum limit of 20, a maximum of 200, smoothing 0.2, an RTT tolerance
// of 1.5, a long window of 600 samples and a queue allowance of 4.
func DefaultConfig() Config {
	return Config{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600}
}

// Limit is a concurrency limit that follows the gradient between a long and
// a short RTT.
//
// The zero value is not usable: use New. A Limit is not safe for concurrent
// use: callers that share one must serialise Update and Limit.
type Limit struct {
	cfg  Config
	est  float64 // the estimated limit
	long longRTT
}

// longRTT is the long-term RTT: the mean of the first warmupSamples samples,
// then an exponential average with factor 2/(window+1).
type longRTT struct {
	factor float64
	n      int     // samples averaged so far, at most warmupSamples
	sum    float64 // their sum
	value  float64
}

// add folds x in and returns the new value.
func (a *longRTT) add(x float64) float64 {
	if a.n < warmupSamples {
		// The mean is recomputed from the sum: a decay applied to value
		// during the warm-up does not survive the next sample.
		a.n++
		a.sum += x
		a.value = a.sum / float64(a.n)
	} else {
		a.value = a.value*(1-a.factor) + x*a.factor
	}
	return a.value
}

// New returns a limit starting at cfg.InitialLimit, as given: it is clamped
// into [MinLimit, MaxLimit] by the first sample that moves it.
//
// New panics, naming the field, unless MinLimit <= MaxLimit,
// 0 <= Smoothing <= 1, RTTTolerance >= 1 and LongWindow >= 1.
func New(cfg Config) *Limit {
	switch {
	case !(cfg.MinLimit <= cfg.MaxLimit):
		panic("gradient2: Config.MinLimit (" + exact(cfg.MinLimit) + ") must be <= MaxLimit (" + exact(cfg.MaxLimit) + ")")
	case !(cfg.Smoothing >= 0 && cfg.Smoothing <= 1):
		panic("gradient2: Config.Smoothing must be in [0, 1], got " + exact(cfg.Smoothing))
	case !(cfg.RTTTolerance >= 1):
		panic("gradient2: Config.RTTTolerance must be >= 1, got " + exact(cfg.RTTTolerance))
	case cfg.LongWindow < 1:
		panic("gradient2: Config.LongWindow must be >= 1, got " + strconv.Itoa(cfg.LongWindow))
	}
	return &Limit{
		cfg:  cfg,
		est:  cfg.InitialLimit,
		long: longRTT{factor: 2 / float64(cfg.LongWindow+1)},
	}
}

// Update records one sample, an RTT of rttNs nanoseconds measured with
// inflight requests in flight, and returns the new limit rounded down.
//
// In order: the queue allowance is QueueSize(int(limit)) (4 if QueueSize
// is nil); the short RTT is rttNs; the long RTT takes the sample in and is
// used as it then stands; if it is more than twice the short RTT, its
// stored value is multiplied by 0.95 for the samples to come (this one
// keeps the undecayed value, which changes nothing here: the gradient is
// then clamped to 1 anyway). If inflight < limit/2 the sample is
// app-limited and the limit is left as it is. Otherwise
//
//	gradient = max(0.5, min(1, RTTTolerance*long/short))
//	n        = limit*gradient + queue
//	limit    = clamp(limit*(1-Smoothing) + n*Smoothing, MinLimit, MaxLimit)
//
// A sample of 0 ns carries no measurement (the gradient would divide by
// zero): Update ignores it, changes nothing and returns Limit().
func (l *Limit) Update(rttNs uint64, inflight int) int {
	if rttNs == 0 {
		return l.Limit()
	}
	queue := 4.0
	if l.cfg.QueueSize != nil {
		queue = l.cfg.QueueSize(int(l.est))
	}
	short := float64(rttNs)
	long := l.long.add(short)
	if long/short > 2 {
		l.long.value *= 0.95
	}
	if float64(inflight) < l.est/2 {
		return l.Limit()
	}
	gradient := max(0.5, min(1, l.cfg.RTTTolerance*long/short))
	n := l.est*gradient + queue
	n = l.est*(1-l.cfg.Smoothing) + n*l.cfg.Smoothing
	l.est = min(max(n, l.cfg.MinLimit), l.cfg.MaxLimit)
	return l.Limit()
}

// Limit returns the current limit rounded down: the number of requests
// that may be in flight.
func (l *Limit) Limit() int { return int(l.est) }

// exact formats a value of a panic's message whole, as %v would. The
// package formats with strconv, not fmt: the lab's WebAssembly builds link
// it (see ratelab/wasm).
func exact(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
