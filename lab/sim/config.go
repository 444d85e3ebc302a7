package sim

import (
	"errors"
	"math/bits"
	"slices"
	"strconv"

	"ratelab/lab/traffic"
)

// Refill says how the token bucket lane refills.
type Refill int

const (
	// Exact refill keeps every fraction of a token (the bucket of the
	// Impl).
	Exact Refill = iota
	// Naive refill rounds each refill down to whole tokens and drops the
	// rest (limiters.NaiveBucket, whatever the Impl).
	Naive
)

// String returns "exact" or "naive".
func (r Refill) String() string {
	if r == Naive {
		return "naive"
	}
	return "exact"
}

// ParseRefill returns the Refill named s, "exact" or "naive".
func ParseRefill(s string) (Refill, error) {
	switch s {
	case "exact":
		return Exact, nil
	case "naive":
		return Naive, nil
	}
	return Exact, errors.New("sim: refill must be exact or naive, not " + strconv.Quote(s))
}

// Limits on a Config, chosen so that every limiter can be built and the
// browser stays responsive.
const (
	MaxLimit    = 100_000        // N: the sliding log keeps N timestamps
	MaxBuckets  = 10_000         // K
	MaxBurst    = 1_000_000      // b, as for the GCRA exercise
	MinWindowNs = 1_000          // W: 1 µs
	MaxWindowNs = 60_000_000_000 // W: one minute
)

// Config is one run of the lab: every lane holds the same long-run limit of
// Limit messages per WindowNs, so the token bucket and the GCRA refill at
// Rate tokens per second. The zero value is not valid; fill Limit,
// WindowNs, Buckets and Traffic at least.
type Config struct {
	Limit    uint32 // N, messages per window
	WindowNs uint64 // W, in nanoseconds
	Buckets  int    // K, buckets of the sliding window
	Burst    uint64 // b, capacity of the token bucket and the GCRA; 0 means Limit
	Refill   Refill // of the token bucket lane
	Traffic  string // a scenario name from traffic.Names
	Seed     uint64 // of the random scenarios
}

// Capacity returns b, the capacity of the token bucket and the GCRA: Burst,
// or Limit when Burst is 0.
func (c Config) Capacity() uint64 {
	if c.Burst == 0 {
		return uint64(c.Limit)
	}
	return c.Burst
}

// Rate returns the refill rate of the token bucket and the GCRA in tokens
// per second: N·10^9/W, rounded down. Choose N and W so that it divides
// exactly if the three limits are to agree to the message.
func (c Config) Rate() uint64 {
	if c.WindowNs == 0 {
		return 0
	}
	return uint64(c.Limit) * 1_000_000_000 / c.WindowNs // at most 2^32·10^9: no overflow
}

// Bound returns b + r·W/10^9 rounded down, the most messages a token
// bucket of burst b and rate r grants in any interval of length W.
func (c Config) Bound() uint64 {
	hi, lo := bits.Mul64(c.Rate(), c.WindowNs)
	if hi >= 1_000_000_000 {
		return ^uint64(0)
	}
	q, _ := bits.Div64(hi, lo, 1_000_000_000)
	return c.Capacity() + q
}

// Validate reports why c cannot be run, or nil if it can.
func (c Config) Validate() error {
	switch {
	case c.Limit < 1 || c.Limit > MaxLimit:
		return errors.New("sim: limit must be between 1 and " + strconv.Itoa(MaxLimit))
	case c.WindowNs < MinWindowNs || c.WindowNs > MaxWindowNs:
		return errors.New("sim: window must be between 1 µs and 60 s")
	case c.Buckets < 1 || c.Buckets > MaxBuckets:
		return errors.New("sim: buckets must be between 1 and " + strconv.Itoa(MaxBuckets))
	case c.Capacity() > MaxBurst:
		return errors.New("sim: burst must be between 1 and " + strconv.Itoa(MaxBurst))
	case c.Rate() < 1:
		return errors.New("sim: limit per window must be at least 1 per second")
	case c.Rate() > 1_000_000_000:
		return errors.New("sim: limit per window must be at most 1 per nanosecond")
	case c.Refill != Exact && c.Refill != Naive:
		return errors.New("sim: refill must be Exact or Naive")
	}
	if slices.Contains(traffic.Names, c.Traffic) {
		return nil
	}
	return errors.New("sim: unknown traffic " + strconv.Quote(c.Traffic))
}
