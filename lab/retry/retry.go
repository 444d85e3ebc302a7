package retry

import (
	"math/rand/v2"
	"strconv"
)

// Counters are a client's cumulative counts since New, in both planes.
type Counters struct {
	// The attempt plane.
	Attempts        uint64 // attempts resolved, failed or not
	AttemptFailures uint64 // attempts that failed
	Retries         uint64 // attempts that were a second or later try

	// The request plane.
	RequestsOK     uint64 // requests that succeeded on one of their tries
	RequestsFailed uint64 // requests whose every try failed
}

// Sub returns the counts of the interval between an earlier snapshot and c.
func (c Counters) Sub(earlier Counters) Counters {
	return Counters{
		Attempts:        c.Attempts - earlier.Attempts,
		AttemptFailures: c.AttemptFailures - earlier.AttemptFailures,
		Retries:         c.Retries - earlier.Retries,
		RequestsOK:      c.RequestsOK - earlier.RequestsOK,
		RequestsFailed:  c.RequestsFailed - earlier.RequestsFailed,
	}
}

// AttemptFailure returns the attempt-failure fraction,
// AttemptFailures/Attempts, or 0 without attempts.
func (c Counters) AttemptFailure() float64 {
	if c.Attempts == 0 {
		return 0
	}
	return float64(c.AttemptFailures) / float64(c.Attempts)
}

// OK returns the request success fraction, RequestsOK over the requests
// that finished, or 1 when none finished.
func (c Counters) OK() float64 {
	done := c.RequestsOK + c.RequestsFailed
	if done == 0 {
		return 1
	}
	return float64(c.RequestsOK) / float64(done)
}

// Client sends requests through a tries wrapper. The zero value is not
// usable: use New.
type Client struct {
	// waiting[k] is the number of requests whose first k tries failed and
	// that will try again (1 <= k < tries); waiting[0] is unused, and len(waiting) is tries.
	waiting []uint64
	moved   []uint64 // scratch of Round: failed tries per level
	rng     *rand.Rand
	c       Counters
}

// New returns a client that gives each request up to tries attempts, its
// choice of failing attempts drawn from seed. It panics if tries < 1.
func New(tries int, seed uint64) *Client {
	if tries < 1 {
		panic("retry: New: tries must be at least 1, got " + strconv.Itoa(tries))
	}
	return &Client{
		waiting: make([]uint64, tries),
		moved:   make([]uint64, tries),
		rng:     rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
}

// Counters returns the cumulative counts so far.
func (c *Client) Counters() Counters { return c.c }

// Waiting returns the number of requests waiting to try again.
func (c *Client) Waiting() uint64 {
	var n uint64
	for _, w := range c.waiting {
		n += w
	}
	return n
}

// Round sends one round of slots concurrent attempts, of which failures
// fail (the target's answer; it is clamped to [0, slots]). Retries owed
// take the slots first, those that have failed most often first; new
// requests fill the rest. Which attempts fail is drawn uniformly: every
// attempt of the round is as likely to be one of them. A failed attempt's
// request tries again in a later round if it has tries left, and fails
// otherwise.
func (c *Client) Round(slots, failures int) {
	if slots <= 0 {
		return
	}
	failures = min(max(failures, 0), slots)
	left, failLeft := uint64(slots), uint64(failures)
	levels := len(c.waiting)
	moved := c.moved
	clear(moved)
	for k := levels - 1; k >= 0 && left > 0; k-- {
		n := left // new requests: as many as there is room for
		if k > 0 {
			n = min(c.waiting[k], left)
			c.waiting[k] -= n
			c.c.Retries += n
		}
		left -= n
		// Selection sampling: fail each attempt with probability
		// failLeft / attempts left in the round, so that exactly
		// failures of them fail, uniformly among all.
		var failed uint64
		for i := uint64(0); i < n; i++ {
			if failLeft > 0 && c.rng.Uint64N(left+n-i) < failLeft {
				failed++
				failLeft--
			}
		}
		c.c.Attempts += n
		c.c.AttemptFailures += failed
		c.c.RequestsOK += n - failed
		if k+1 < levels {
			moved[k+1] += failed
		} else {
			c.c.RequestsFailed += failed
		}
	}
	for k := 1; k < levels; k++ {
		c.waiting[k] += moved[k]
	}
}
