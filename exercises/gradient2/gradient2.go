package gradient2

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
//
// It is written for you: these are data from the course contract, not
// something to work out.
func DefaultConfig() Config {
	return Config{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600}
}

// Limit is your limit. Its fields are yours to choose: what must it keep
// between samples to compute the long RTT, through the warm-up and after?
type Limit struct {
	// Your fields here.
}

// New returns a limit starting at cfg.InitialLimit.
func New(cfg Config) *Limit {
	panic("gradient2: New is not implemented yet")
}

// Update records one sample, an RTT of rttNs nanoseconds measured with
// inflight requests in flight, and returns the new limit rounded down.
func (l *Limit) Update(rttNs uint64, inflight int) int {
	panic("gradient2: Update is not implemented yet")
}

// Limit returns the current limit rounded down.
func (l *Limit) Limit() int {
	panic("gradient2: Limit is not implemented yet")
}
