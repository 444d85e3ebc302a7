package gradient2

import (
	"errors"
	"math"
	"math/rand/v2"

	"ratelab/lab/adaptive"
	"ratelab/lab/guard"
	"ratelab/lab/target"
)

// BinNs is the length of a Bin: 50 ms of virtual time.
const BinNs = 50_000_000

// MaxBins is the most bins one Step returns.
const MaxBins = 4096

// Step is one level of the load schedule.
type Step struct {
	DurationNs uint64
	Load       float64 // arrival rate as a multiple of the server's throughput
}

// Config is one run of the Gradient2 lab.
type Config struct {
	Workers   int     // the server's workers
	ServiceNs uint64  // their mean service time
	Noise     float64 // relative spread of service times, in [0, 1)
	Steps     []Step  // the load schedule, repeated from the start when it ends

	Limit adaptive.LimitConfig
	Seed  uint64
}

// DefaultConfig returns the lab's run: a server of 20 workers taking
// 100 ms ±50% per request (200 requests per second at most), the
// exercise's default limit, and a schedule of 10 s steps: half load, 1.3
// times what the server can do, half load again, then twice it.
func DefaultConfig() Config {
	const s = 1_000_000_000
	return Config{
		Workers: 20, ServiceNs: 100_000_000, Noise: 0.5,
		Steps: []Step{{10 * s, 0.5}, {10 * s, 1.3}, {10 * s, 0.5}, {10 * s, 2}},
		Limit: adaptive.DefaultLimitConfig(),
		Seed:  1,
	}
}

// Validate reports why c cannot be run, or nil if it can.
func (c Config) Validate() error {
	switch {
	case c.Workers < 1 || c.Workers > 10_000:
		return errors.New("gradient2: workers must be between 1 and 10000")
	case c.ServiceNs < 1_000 || c.ServiceNs > 10_000_000_000:
		return errors.New("gradient2: service time must be between 1 µs and 10 s")
	case !(c.Noise >= 0 && c.Noise < 1):
		return errors.New("gradient2: noise must be in [0, 1)")
	case len(c.Steps) == 0:
		return errors.New("gradient2: the load schedule has no step")
	}
	for _, s := range c.Steps {
		if s.DurationNs == 0 || !(s.Load >= 0 && s.Load <= 20) {
			return errors.New("gradient2: every step needs a duration and a load between 0 and 20")
		}
	}
	return nil
}

// Bin is one slice of BinNs of a run.
type Bin struct {
	StartNs uint64
	Load    float64 // the schedule's load at the bin's start

	Limit    int     // the limit at the end of the bin
	ShortRTT float64 // mean RTT of the bin's samples, ns; 0 without samples
	LongRTT  float64 // the long RTT at the end of the bin, ns; 0 before any sample
	Inflight int     // requests in flight at the end of the bin

	Arrived    uint64 // requests that arrived
	Admitted   uint64 // of them, let through by the limit
	Rejected   uint64 // of them, turned away
	Samples    uint64 // requests that completed: Update calls
	AppLimited uint64 // of the samples, those sent with fewer than half the limit in flight
}

// pending is a request in flight.
type pending struct {
	doneNs, sentNs uint64
	inflight       int // in flight when it was sent, itself included
}

// Run is one run. It is not safe for concurrent use.
type Run struct {
	cfg     Config
	side    guard.Side // the limit's: Impl's name, and whether and why it stopped the run
	queue   *target.Queue
	rng     *rand.Rand
	limit   adaptive.Limit
	current int // the limit's latest answer
	long    longRTT
	short   float64

	now     uint64 // start of the next bin
	arrival uint64 // time of the next arrival
	step    int    // index of the step the next arrival falls in
	stepEnd uint64 // when that step ends
	period  uint64 // the schedule's length: the sum of its steps
	flight  []pending
	bins    []Bin
}

// New returns a run of cfg at time 0, its limit built by impl. A
// constructor that is nil or panics leaves the run stopped, with the reason
// in Status; New fails only when cfg is invalid.
func New(cfg Config, impl adaptive.Impl) (*Run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Run{
		cfg:   cfg,
		side:  guard.Side{Name: impl.Name},
		queue: target.NewQueue(cfg.Workers, cfg.ServiceNs, cfg.Noise, cfg.Seed),
		rng:   rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0xda942042e4dd58b5)),
		long:  longRTT{factor: 2 / float64(max(cfg.Limit.LongWindow, 1)+1)},
	}
	r.stepEnd = cfg.Steps[0].DurationNs
	for _, s := range cfg.Steps {
		r.period += s.DurationNs
	}
	r.arrival = r.nextArrival(0)
	switch {
	case impl.NewLimit == nil:
		r.side.Stop(guard.Missing(impl.Missing))
	default:
		r.side.Guard(func() {
			r.limit = impl.NewLimit(cfg.Limit)
			if r.limit == nil {
				panic(errors.New("New returned nil"))
			}
			r.current = r.limit.Limit()
		})
	}
	return r, nil
}

// Config returns the configuration the run was made with.
func (r *Run) Config() Config { return r.cfg }

// Impl returns the name of the Impl the run was made with.
func (r *Run) Impl() string { return r.side.Name }

// Now returns the virtual time the run has reached: the end of its latest
// bin.
func (r *Run) Now() uint64 { return r.now }

// Throughput returns the most requests per second the server completes.
func (r *Run) Throughput() float64 { return r.queue.Throughput() }

// Limit returns the limit's latest answer.
func (r *Run) Limit() int { return r.current }

// ShortRTT returns the latest sample's RTT in ns, 0 before the first.
func (r *Run) ShortRTT() float64 { return r.short }

// LongRTT returns the long RTT in ns, as the exercise defines it, 0 before
// the first sample.
func (r *Run) LongRTT() float64 { return r.long.value }

// Inflight returns the number of requests in flight.
func (r *Run) Inflight() int { return len(r.flight) }

// Stopped reports whether the limit stopped the run; Status says why.
func (r *Run) Stopped() bool { return r.side.Stopped }

// Status says why the run stopped, or is empty while it runs.
func (r *Run) Status() string { return r.side.Status }

// ImplStatus is the Impl's name while the run goes on, and the name and
// the reason once it stopped ("Yours: not implemented yet").
func (r *Run) ImplStatus() string { return r.side.ImplStatus() }

// LoadAt returns the schedule's load at tNs.
func (r *Run) LoadAt(tNs uint64) float64 {
	t := tNs % r.period
	for _, s := range r.cfg.Steps {
		if t < s.DurationNs {
			return s.Load
		}
		t -= s.DurationNs
	}
	return r.cfg.Steps[0].Load
}

// nextArrival draws the time of the arrival after one at tNs, moving
// through the schedule's steps as it goes: the stream is memoryless, so at
// a step's end the draw starts again at the new rate.
func (r *Run) nextArrival(tNs uint64) uint64 {
	for {
		load := r.cfg.Steps[r.step].Load
		if load > 0 {
			perNs := load * r.queue.Throughput() / 1e9
			gap := r.rng.ExpFloat64() / perNs
			if next := float64(tNs) + gap; next < float64(r.stepEnd) {
				return uint64(math.Ceil(next))
			}
		}
		tNs = r.stepEnd
		r.step = (r.step + 1) % len(r.cfg.Steps)
		r.stepEnd += r.cfg.Steps[r.step].DurationNs
	}
}

// Step runs whole bins while they end at or before untilNs, at most
// maxBins of them (and at most MaxBins), and returns them. A stopped run
// returns none. The slice belongs to the Run and is valid until the next
// Step.
func (r *Run) Step(untilNs uint64, maxBins int) []Bin {
	bins := r.bins[:0]
	for len(bins) < min(maxBins, MaxBins) && !r.side.Stopped && r.now+BinNs <= untilNs {
		bins = append(bins, r.bin())
	}
	r.bins = bins
	return bins
}

// bin runs the next bin.
func (r *Run) bin() Bin {
	b := Bin{StartNs: r.now, Load: r.LoadAt(r.now)}
	end := r.now + BinNs
	var rttSum float64
	for !r.side.Stopped {
		done := uint64(math.MaxUint64)
		if len(r.flight) > 0 {
			done = r.flight[0].doneNs
		}
		if done < end && done <= r.arrival {
			p := r.pop()
			rtt := p.doneNs - p.sentNs
			b.Samples++
			rttSum += float64(rtt)
			r.short = float64(rtt)
			r.long.add(r.short)
			if float64(p.inflight) < float64(r.current)/2 {
				b.AppLimited++
			}
			r.side.Guard(func() { r.current = r.limit.Update(rtt, p.inflight) })
			continue
		}
		if r.arrival >= end {
			break
		}
		t := r.arrival
		b.Arrived++
		if len(r.flight) >= r.current {
			b.Rejected++
		} else {
			b.Admitted++
			r.push(pending{doneNs: r.queue.Admit(t), sentNs: t, inflight: len(r.flight) + 1})
		}
		r.arrival = r.nextArrival(t)
	}
	r.now = end
	b.Limit, b.LongRTT, b.Inflight = r.current, r.long.value, len(r.flight)
	if b.Samples > 0 {
		b.ShortRTT = rttSum / float64(b.Samples)
	}
	return b
}

// push adds p to the heap of requests in flight, earliest completion first.
func (r *Run) push(p pending) {
	h := append(r.flight, p)
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].doneNs <= h[i].doneNs {
			break
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
	r.flight = h
}

// pop removes and returns the request that completes first.
func (r *Run) pop() pending {
	h := r.flight
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if rr := l + 1; rr < len(h) && h[rr].doneNs < h[l].doneNs {
			m = rr
		}
		if h[i].doneNs <= h[m].doneNs {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	r.flight = h
	return top
}

// longRTT is the long RTT as the exercise defines it: the mean of the first
// 10 samples, then an exponential average with factor 2/(LongWindow+1),
// pulled down by 5% after any sample it exceeds more than twice.
type longRTT struct {
	factor float64
	n      int
	sum    float64
	value  float64
}

func (a *longRTT) add(x float64) {
	if a.n < 10 {
		a.n++
		a.sum += x
		a.value = a.sum / float64(a.n)
	} else {
		a.value = a.value*(1-a.factor) + x*a.factor
	}
	if a.value/x > 2 {
		a.value *= 0.95
	}
}
