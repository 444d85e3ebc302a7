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

	"governor": `package governor

const MemoryClearStreak = 3

type Action int

const (
	Hold    Action = iota // nothing moves
	Double                // slow start
	BackOff               // breach
	Recover               // x1.5 up to 75% of LastBad
	Probe                 // additive step
)

type Config struct {
	Floor, Ceiling float64 // the offer never leaves [Floor, Ceiling]
	Start          float64 // opening offer; 0 means Floor
	Low, High      float64 // clean at frac <= Low, breach above High
}

type Decision struct {
	Action  Action
	Offer   float64 // the offer for the next window
	LastBad float64 // congestion memory after this window; 0: none
	Reason  string  // one line naming the signal and the move
}

// Decide is one window's pure rule.
func Decide(cfg Config, frac, current, lastBad float64) Decision

// MemoryClearStep folds one window's evidence into the streak.
func MemoryClearStep(streak int, cleanAtOrAboveLastBad bool) (next int, clears bool)

func New(cfg Config) *Governor

// Observe takes the window from the deltas of the cumulative counters.
func (g *Governor) Observe(cumFailures, cumResolved uint64) Decision
func (g *Governor) Offer() float64
func (g *Governor) LastBad() float64`,

	"gradient2": `package gradient2

type Config struct {
	InitialLimit, MinLimit, MaxLimit float64 // 20, 20, 200
	Smoothing                        float64 // 0.2
	RTTTolerance                     float64 // 1.5, >= 1
	LongWindow                       int     // 600
	QueueSize                        func(limit int) float64 // nil means 4
}

func DefaultConfig() Config
func New(cfg Config) *Limit

// Update records one sample and returns int(limit).
func (l *Limit) Update(rttNs uint64, inflight int) int
func (l *Limit) Limit() int`,
}
