package tokenbucket

// TokenBucket is your token bucket. Its fields are yours to choose: what
// must it remember between two calls, and in what units?
type TokenBucket struct {
	// Your fields here.
}

// New returns a full bucket of capacity tokens that refills at ratePerSec
// tokens per second, with nowNs as the latest time seen. Every uint64 value
// of every argument must be accepted.
func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	panic("tokenbucket: New is not implemented yet")
}

// TryAcquire refills the bucket for the time up to nowNs, then takes n tokens
// if all n are there, and reports whether it did. If fewer than n are there,
// it takes none. A nowNs at or before the latest time seen adds nothing.
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {
	panic("tokenbucket: TryAcquire is not implemented yet")
}

// Available refills the bucket for the time up to nowNs and returns the
// number of whole tokens it holds, without taking any.
func (b *TokenBucket) Available(nowNs uint64) uint64 {
	panic("tokenbucket: Available is not implemented yet")
}
