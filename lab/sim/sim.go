package sim

import (
	"errors"

	"ratelab/lab/guard"
	"ratelab/lab/limiters"
	"ratelab/lab/traffic"
)

// Limiter is what a lane asks of its limiter: to admit one message at a
// time in virtual nanoseconds, and report whether it did.
type Limiter interface {
	TryAcquire(nowNs uint64) bool
}

// Holder is a Limiter that can show how many whole tokens it holds.
type Holder interface {
	Tokens(nowNs uint64) uint64
}

// Counter is a Limiter that can show how many messages its window at nowNs
// holds.
type Counter interface {
	Count(nowNs uint64) uint32
}

// Bucketed is a Limiter that can show its window's count per bucket.
type Bucketed interface {
	Buckets(dst []uint32, nowNs uint64) []uint32
}

// Lossy is a Limiter that throws credit away and can say how much.
type Lossy interface {
	Lost() limiters.Credit
}

var (
	_ Counter  = (*limiters.FixedWindow)(nil)
	_ Counter  = (*limiters.SlidingLog)(nil)
	_ Bucketed = (*limiters.SlidingWindow)(nil)
	_ Holder   = (*limiters.TokenBucket)(nil)
	_ Holder   = (*limiters.NaiveBucket)(nil)
	_ Lossy    = (*limiters.NaiveBucket)(nil)
)

// Lane identifies one of the limiters a Sim runs. Lane i decides bit i of
// every Batch.Accept entry.
type Lane int

// The lanes, in the order of their bits.
const (
	Fixed       Lane = iota // fixed window, the lab's own
	Sliding                 // bucketed sliding window, from the Impl
	TokenBucket             // token bucket: the Impl's (Exact) or the lab's NaiveBucket
	SlidingLog              // sliding log, the lab's own
	GCRA                    // GCRA, from the Impl
	NumLanes    = 5
)

var laneIDs = [NumLanes]string{"fixed", "sliding", "tokenbucket", "slidinglog", "gcra"}

var laneNames = [NumLanes]string{"Fixed window", "Sliding window", "Token bucket", "Sliding log", "GCRA"}

// String returns the lane's id, as the browser names it: "fixed",
// "sliding", "tokenbucket", "slidinglog" or "gcra".
func (l Lane) String() string { return laneIDs[l] }

// Name returns the lane's title for people, such as "Fixed window".
func (l Lane) Name() string { return laneNames[l] }

// MaxBatch is the most messages one Step decides.
const MaxBatch = 1 << 16

// lane is one limiter and its measures.
type lane struct {
	lim      Limiter
	peak     Peak
	accepted uint64
	refused  uint64
	stopped  bool
	status   string // why the lane stopped; empty while it runs
}

// stop stops the lane because of a panic whose value is v.
func (l *lane) stop(v any) {
	l.stopped = true
	l.status = guard.Status(v)
}

// Sim runs one stream of messages against every lane in virtual time. It
// is not safe for concurrent use.
type Sim struct {
	cfg      Config
	impl     string
	src      traffic.Source
	next     uint64 // time of the next message, already drawn from src
	now      uint64 // virtual time the run has reached
	last     uint64 // time of the latest message decided
	messages uint64
	lanes    [NumLanes]lane
	times    []uint64
	accept   []uint8
	// exact follows the exact token bucket lane (nil under naive refill,
	// whose bucket counts its own loss): Lost is computed from it.
	exact *shadow
}

// New returns a run of cfg at virtual time 0, with the sliding window, the
// exact token bucket and the GCRA built by impl. A constructor of impl that
// is nil or panics leaves its lane stopped, with the reason in State; New
// fails only when cfg is invalid.
func New(cfg Config, impl limiters.Impl) (*Sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	src, err := traffic.Named(cfg.Traffic, uint64(cfg.Limit), cfg.WindowNs, cfg.Seed)
	if err != nil {
		return nil, err
	}
	s := &Sim{cfg: cfg, impl: impl.Name, src: src}
	for id := range s.lanes {
		s.lanes[id].peak = *NewPeak(cfg.WindowNs)
	}
	s.next = src.Next()
	rate, burst := cfg.Rate(), cfg.Capacity()
	missing := guard.Missing(impl.Missing)
	s.build(Fixed, func() Limiter { return limiters.NewFixedWindow(cfg.Limit, cfg.WindowNs) })
	s.build(SlidingLog, func() Limiter { return limiters.NewSlidingLog(cfg.Limit, cfg.WindowNs) })
	if impl.NewWindow == nil {
		s.lanes[Sliding].stopped, s.lanes[Sliding].status = true, missing
	} else {
		s.build(Sliding, func() Limiter {
			return limiters.NewSlidingWindow(impl.NewWindow(cfg.Limit, cfg.WindowNs, cfg.Buckets), cfg.WindowNs, cfg.Buckets)
		})
	}
	switch {
	case cfg.Refill == Naive:
		s.build(TokenBucket, func() Limiter { return limiters.NewNaiveBucket(burst, rate, 0) })
	case impl.NewBucket == nil:
		s.lanes[TokenBucket].stopped, s.lanes[TokenBucket].status = true, missing
	default:
		s.build(TokenBucket, func() Limiter {
			return limiters.NewTokenBucket(impl.NewBucket(burst, rate, 0), impl.Exact, 0)
		})
		s.exact = newShadow(burst, rate)
	}
	if impl.NewGCRA == nil {
		s.lanes[GCRA].stopped, s.lanes[GCRA].status = true, missing
	} else {
		s.build(GCRA, func() Limiter { return impl.NewGCRA(rate, burst, 0) })
	}
	return s, nil
}

// build makes lane id's limiter with mk, stopping the lane if mk panics.
func (s *Sim) build(id Lane, mk func() Limiter) {
	l := &s.lanes[id]
	defer func() {
		if v := recover(); v != nil {
			l.lim = nil
			l.stop(v)
		}
	}()
	l.lim = mk()
	if l.lim == nil {
		panic(errors.New("constructor returned nil"))
	}
}

// Config returns the configuration the run was made with.
func (s *Sim) Config() Config { return s.cfg }

// Impl returns the name of the Impl the run was made with.
func (s *Sim) Impl() string { return s.impl }

// Now returns the virtual time the run has reached, in nanoseconds.
func (s *Sim) Now() uint64 { return s.now }

// Batch is the outcome of one Step: message i arrived at Times[i], and bit
// j of Accept[i] (1<<Lane) is set when lane j accepted it. A stopped lane
// accepts nothing. The slices belong to the Sim and are valid until the
// next Step.
type Batch struct {
	Times  []uint64
	Accept []uint8
	NowNs  uint64 // virtual time after the batch
}

// Len returns the number of messages in the batch.
func (b Batch) Len() int { return len(b.Times) }

// Step decides every message up to and including virtual time untilNs, but
// at most maxMessages of them (and at most MaxBatch). When that cuts the batch short,
// the run's time stops at the latest message decided, so a dense stream
// slows the run down rather than skipping messages. Each lane sees the
// messages in order, so how a run is cut into batches changes nothing.
func (s *Sim) Step(maxMessages int, untilNs uint64) Batch {
	maxMessages = min(maxMessages, MaxBatch)
	times := s.times[:0]
	for len(times) < maxMessages && s.next <= untilNs {
		times = append(times, s.next)
		s.next = s.src.Next()
	}
	s.times = times
	if cap(s.accept) < len(times) {
		s.accept = make([]uint8, len(times), cap(times))
	}
	accept := s.accept[:len(times)]
	clear(accept)
	if len(times) > 0 {
		s.last = times[len(times)-1]
		s.messages += uint64(len(times))
	}
	if s.next > untilNs {
		s.now = max(s.now, untilNs)
	} else {
		s.now = max(s.now, s.last)
	}
	for id := range s.lanes {
		if l := &s.lanes[id]; !l.stopped {
			l.decide(times, accept, uint8(1)<<id)
		}
	}
	if s.exact != nil {
		for i, t := range times {
			if accept[i]&(1<<TokenBucket) != 0 {
				s.exact.take(t)
			}
		}
	}
	return Batch{Times: times, Accept: accept, NowNs: s.now}
}

// decide asks the lane's limiter about every message, setting bit in
// accept for those it accepts. A panic stops the lane; the messages from
// the one that panicked on are left undecided (not accepted).
func (l *lane) decide(times []uint64, accept []uint8, bit uint8) {
	defer func() {
		if v := recover(); v != nil {
			l.stop(v)
		}
	}()
	lim, peak := l.lim, &l.peak
	for i, t := range times {
		if lim.TryAcquire(t) {
			accept[i] |= bit
			l.accepted++
			peak.Add(t)
		} else {
			l.refused++
		}
	}
}
