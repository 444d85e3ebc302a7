package gradient2

import "math"

// Config is a limit's fixed parameters.
type Config struct {
	InitialLimit, MinLimit, MaxLimit float64
	Smoothing                        float64
	RTTTolerance                     float64
	LongWindow                       int
	QueueSize                        func(limit int) float64
}

// DefaultConfig returns the defaults of Netflix's Gradient2Limit.
func DefaultConfig() Config {
	return Config{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600}
}

const warmup = 10

// Limit is a gradient concurrency limit.
type Limit struct {
	cfg     Config
	est     float64
	long    float64 // the stored long RTT
	samples int     // samples seen, up to warmup
	sum     float64 // sum of the warm-up samples
}

// New returns a limit starting at cfg.InitialLimit.
func New(cfg Config) *Limit {
	return &Limit{cfg: cfg, est: cfg.InitialLimit}
}

func (l *Limit) addLong(rtt float64) float64 {
	if l.samples < warmup {
		l.samples++
		l.sum += rtt
		l.long = l.sum / float64(l.samples)
	} else {
		f := 2 / (float64(l.cfg.LongWindow) + 1)
		l.long = l.long*(1-f) + rtt*f
	}
	return l.long
}

// Update records one sample and returns the new limit rounded down.
func (l *Limit) Update(rttNs uint64, inflight int) int {
	queue := 4.0
	if l.cfg.QueueSize != nil {
		queue = l.cfg.QueueSize(int(l.est))
	}
	short := float64(rttNs)
	long := l.addLong(short)
	if long/short > 2 {
		l.long = long * 0.95
		l.sum *= 0.95
	}
	if float64(inflight) < l.est/2 {
		return int(l.est)
	}
	gradient := math.Max(0.5, math.Min(1, l.cfg.RTTTolerance*long/short))
	n := l.est*gradient + queue
	n = l.est*(1-l.cfg.Smoothing) + n*l.cfg.Smoothing
	l.est = math.Max(l.cfg.MinLimit, math.Min(l.cfg.MaxLimit, n))
	return int(l.est)
}

// Limit returns the current limit rounded down.
func (l *Limit) Limit() int { return int(l.est) }
