package traffic

import (
	"errors"
	"math/rand/v2"
)

// Source is an endless stream of arrival times in virtual nanoseconds.
// Next returns the time of the next message; successive times never
// decrease.
type Source interface {
	Next() uint64
}

// Steady sends one message every interval, the first at the start time.
type Steady struct {
	next, interval uint64
}

// NewSteady returns a stream with messages at startNs, startNs+intervalNs,
// and so on.
func NewSteady(startNs, intervalNs uint64) *Steady {
	return &Steady{next: startNs, interval: intervalNs}
}

// Next returns the time of the next message.
func (s *Steady) Next() uint64 {
	t := s.next
	s.next += s.interval
	return t
}

// Bursty sends bursts of messages separated by idle gaps. A burst holds
// between size/2 and 3·size/2 messages (at least one), spacing apart; the gap
// from the end of one burst to the start of the next lies between gap/2 and
// 3·gap/2. Both are drawn uniformly, so the means are size and gap. The first
// burst starts at 0.
type Bursty struct {
	rng          *rand.Rand
	size         uint64
	spacing, gap uint64
	prev         uint64 // time of the latest message
	left         uint64 // messages left in the current burst
	started      bool
}

// NewBursty returns a bursty stream drawn from seed.
func NewBursty(seed uint64, size, spacingNs, gapNs uint64) *Bursty {
	return &Bursty{rng: newRand(seed), size: max(size, 1), spacing: spacingNs, gap: gapNs}
}

// around returns a value drawn uniformly from [m/2, 3m/2].
func around(r *rand.Rand, m uint64) uint64 {
	return m/2 + r.Uint64N(m+1)
}

// Next returns the time of the next message.
func (b *Bursty) Next() uint64 {
	switch {
	case !b.started:
		b.started = true
		b.left = max(around(b.rng, b.size), 1)
	case b.left == 0:
		b.prev += around(b.rng, b.gap)
		b.left = max(around(b.rng, b.size), 1)
	default:
		b.prev += b.spacing
	}
	b.left--
	return b.prev
}

// Poisson sends messages at independent, exponentially distributed
// intervals: a Poisson process with the given mean interval, starting at 0.
type Poisson struct {
	rng  *rand.Rand
	mean float64
	t    float64 // exact time of the next message, before rounding
}

// NewPoisson returns a Poisson stream with a mean interval of meanNs,
// drawn from seed.
func NewPoisson(seed, meanNs uint64) *Poisson {
	return &Poisson{rng: newRand(seed), mean: float64(meanNs)}
}

// Next returns the time of the next message, rounded down to a nanosecond.
func (p *Poisson) Next() uint64 {
	p.t += p.rng.ExpFloat64() * p.mean
	return uint64(p.t)
}

// Edge is the boundary attack on a fixed window of length W: it packs n
// messages into the span just before the boundary at W, n more into the span
// just after it, waits, and does the same at 3W, 5W, and so on. Within one
// span the messages are evenly spaced, the first at the start of the span.
// A fixed window admits all 2n in 2·span; a limiter that holds "n in any
// window" admits about n.
type Edge struct {
	n, window, span uint64
	period          uint64 // attacks so far
	i               uint64 // index of the next message within the attack
}

// NewEdge returns the attack with n messages each side of every odd
// multiple of windowNs, packed into spanNs on each side. The span is capped
// at windowNs so that attacks never overlap.
func NewEdge(n, windowNs, spanNs uint64) *Edge {
	return &Edge{n: max(n, 1), window: windowNs, span: min(spanNs, windowNs)}
}

// Next returns the time of the next message.
func (e *Edge) Next() uint64 {
	boundary := (2*e.period + 1) * e.window
	var t uint64
	if e.i < e.n {
		t = boundary - e.span + e.i*e.span/e.n
	} else {
		t = boundary + (e.i-e.n)*e.span/e.n
	}
	e.i++
	if e.i == 2*e.n {
		e.i = 0
		e.period++
	}
	return t
}

// newRand returns a PCG generator seeded from one number.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Scenario names accepted by Named.
const (
	SteadyName    = "steady"
	BurstyName    = "bursty"
	RandomName    = "random"
	EdgeName      = "edge"
	NaiveDemoName = "naive-demo"
)

// Names lists the scenarios Named knows, in the order the lab offers them.
var Names = []string{SteadyName, BurstyName, RandomName, EdgeName, NaiveDemoName}

// loadNum/loadDen is the offered load of the steady, bursty and random
// scenarios as a multiple of the limit rate: 5/4, so that a correct limiter
// refuses about one message in five in the long run.
const (
	loadNum = 5
	loadDen = 4
)

// EdgeSpanNs is the largest span of the edge attack on each side of the
// boundary: 50 ms, or W/20 if that is shorter.
const EdgeSpanNs = 50_000_000

// NaiveDemoIntervalNs is the interval of the naive-demo scenario: a call
// every 100 µs, each earning 0.1 token from a bucket refilled at 1,000
// tokens per second.
const NaiveDemoIntervalNs = 100_000

// ErrUnknown is returned by Named for a name it does not know.
var ErrUnknown = errors.New("traffic: unknown scenario")

// Named returns the scenario called name, shaped for a limit of limit
// messages per window of windowNs:
//
//   - steady: one message every 4W/(5·limit), 5/4 of the limit rate;
//   - bursty: bursts of limit/2 messages on average, W/(20·limit) apart,
//     with gaps that bring the mean load to 5/4 of the limit rate;
//   - random: a Poisson process at 5/4 of the limit rate;
//   - edge: limit messages in the last 50 ms (at most W/20) before every
//     odd multiple of W and limit more in the 50 ms after it (see Edge);
//   - naive-demo: one message every 100 µs, whatever the limit.
//
// Intervals are rounded down to a nanosecond and are at least 1 ns. The
// random scenarios draw from seed. It returns ErrUnknown for another name,
// and an error if limit or windowNs is 0.
func Named(name string, limit, windowNs, seed uint64) (Source, error) {
	if limit == 0 || windowNs == 0 {
		return nil, errors.New("traffic: limit and windowNs must be at least 1")
	}
	interval := max(windowNs*loadDen/(limit*loadNum), 1) // mean interval at 5/4 load
	switch name {
	case SteadyName:
		return NewSteady(0, interval), nil
	case BurstyName:
		size := max(limit/2, 1)
		spacing := max(windowNs/(20*limit), 1)
		// A burst of size messages and its gap take size intervals on average.
		cycle := size * interval
		gap := spacing
		if busy := (size - 1) * spacing; cycle > busy+spacing {
			gap = cycle - busy
		}
		return NewBursty(seed, size, spacing, gap), nil
	case RandomName:
		return NewPoisson(seed, interval), nil
	case EdgeName:
		return NewEdge(limit, windowNs, min(EdgeSpanNs, windowNs/20)), nil
	case NaiveDemoName:
		return NewSteady(0, NaiveDemoIntervalNs), nil
	}
	return nil, ErrUnknown
}
