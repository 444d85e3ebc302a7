package gradient2

// longRTT is the long RTT: a plain mean of the first len(first) samples,
// then an exponential average.
type longRTT struct {
	first  [10]float64
	n      int
	value  float64
	factor float64
}

func (m *longRTT) add(x float64) float64 {
	if m.n < len(m.first) {
		m.first[m.n] = x
		m.n++
		total := 0.0
		for _, v := range m.first[:m.n] {
			total += v
		}
		m.value = total / float64(m.n)
		return m.value
	}
	m.value = m.value*(1-m.factor) + x*m.factor
	return m.value
}

// Limit is a gradient concurrency limit.
type Limit struct {
	cfg  Config
	est  float64
	long longRTT
}

// New returns a limit starting at cfg.InitialLimit.
func New(cfg Config) *Limit {
	return &Limit{cfg: cfg, est: cfg.InitialLimit, long: longRTT{factor: 2.0 / float64(cfg.LongWindow+1)}}
}

// Update records one sample and returns the new limit rounded down.
func (l *Limit) Update(rttNs uint64, inflight int) int {
	queue := l.cfg.queue(int(l.est))
	short := float64(rttNs)
	long := l.long.add(short)
	if long/short > 2 {
		l.long.value *= 0.95
	}
	if !(float64(inflight) < l.est/2) {
		l.est = l.next(long, short, queue)
	}
	return l.Limit()
}

func (l *Limit) next(long, short, queue float64) float64 {
	g := l.cfg.RTTTolerance * long / short
	if g > 1 {
		g = 1
	}
	n := l.est*g + queue
	n = l.est*(1-l.cfg.Smoothing) + n*l.cfg.Smoothing
	switch {
	case n < l.cfg.MinLimit:
		return l.cfg.MinLimit
	case n > l.cfg.MaxLimit:
		return l.cfg.MaxLimit
	}
	return n
}

// Limit returns the current limit rounded down.
func (l *Limit) Limit() int { return int(l.est) }
