package page

// apiOf returns the exported API an exercise package must provide, as Go
// source, or "" for an exercise this page has no text for yet.
func apiOf(id string) string {
	return apis[id]
}

var apis = map[string]string{
	"tokenbucket": `package tokenbucket

// New returns a bucket holding capacity tokens (it starts full),
// refilled at ratePerSec tokens per second.
func New(capacity, ratePerSec, nowNs uint64) *TokenBucket

// TryAcquire refills for the time since the latest time seen,
// then takes all n tokens, or none and returns false.
func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool

// Available refills, then returns the whole tokens held. It takes none.
func (b *TokenBucket) Available(nowNs uint64) uint64`,

	"gcra": `package gcra

// New panics, naming the argument, unless
// 1 <= ratePerSec <= 1e9 and 1 <= burst <= 1e6.
func New(ratePerSec, burst, nowNs uint64) *GCRA

// TryAcquire decides one message arriving at nowNs.
func (g *GCRA) TryAcquire(nowNs uint64) bool`,

	"slidingwindow": `package slidingwindow

// New panics, naming the argument, unless buckets >= 1
// and windowNs >= buckets.
func New(limit uint32, windowNs uint64, buckets int) *SlidingWindow

// Count returns the messages accepted in the current bucket
// and the buckets-1 before it.
func (w *SlidingWindow) Count(nowNs uint64) uint32

// TryAcquire accepts and counts a message if Count(nowNs) < limit.
// Rejected messages are not counted.
func (w *SlidingWindow) TryAcquire(nowNs uint64) bool`,
}
