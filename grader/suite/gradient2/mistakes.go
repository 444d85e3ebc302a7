package gradient2

import (
	"math"

	"ratelab/grader/check"
)

// mistakes are those learners make with a Gradient2 limit (see
// check.Mistake).
var mistakes = check.Mistakes(mistaken, []check.Mistake[New]{
	// warmup: the long RTT is the plain mean of the first 10 samples,
	// then an exponential average with factor 2/(LongWindow+1).
	{Name: "average-from-first-sample", Pitfall: "warmup", Says: "starts the exponential average at the first sample instead of averaging the first 10 plainly"},
	{Name: "average-from-zero", Pitfall: "warmup", Says: "starts the exponential average at 0 instead of averaging the first 10 samples plainly"},
	{Name: "mean-of-first-9", Pitfall: "warmup", Says: "averages the first 9 samples plainly, not the first 10"},
	{Name: "mean-of-first-11", Pitfall: "warmup", Says: "averages the first 11 samples plainly, not the first 10"},
	{Name: "integer-factor", Pitfall: "warmup", Says: "computes the factor 2/(LongWindow+1) in integer arithmetic, so that it is 0 (the long RTT never moves after the warm-up) unless LongWindow is 1"},
	{Name: "factor-over-window", Pitfall: "warmup", Says: "uses the factor 2/LongWindow, not 2/(LongWindow+1)"},
	{Name: "average-weights-swapped", Pitfall: "warmup", Says: "gives the new sample the weight 1-f and the long RTT the weight f in the exponential average, the other way round"},
	// long-rtt-decay: long/short > 2 multiplies the stored long RTT by
	// 0.95, for the samples after this one.
	{Name: "decay-lost", Pitfall: "long-rtt-decay", Says: "never keeps the 5% decay: the stored long RTT stays as it was"},
	{Name: "decay-when-short-is-long", Pitfall: "long-rtt-decay", Says: "decays the long RTT when short/long > 2, not when long/short > 2"},
	{Name: "warmup-keeps-decay", Pitfall: "long-rtt-decay", Says: "keeps the warm-up's mean as a running mean of the stored long RTT (long += (rtt-long)/n), so that a decay during the warm-up lasts"},
	{Name: "no-decay-when-app-limited", Pitfall: "long-rtt-decay", Says: "returns on an app-limited sample before the decay, so that only samples that move the limit decay the long RTT"},
	// app-limited: inflight < est/2 leaves the limit alone, after the
	// sample went into the long RTT.
	{Name: "app-limited-skips-rtt", Pitfall: "app-limited", Says: "returns on an app-limited sample before its RTT goes into the long RTT"},
	{Name: "app-limited-at-half", Pitfall: "app-limited", Says: "takes inflight <= limit/2 as app-limited, not only inflight < limit/2"},
	{Name: "app-limited-by-whole-limit", Pitfall: "app-limited", Says: "takes inflight < int(limit)/2, in integer division, as app-limited"},
	{Name: "never-app-limited", Pitfall: "app-limited", Says: "moves the limit on every sample, app-limited or not"},
	// gradient-clamp: gradient = max(0.5, min(1, RTTTolerance*long/short)).
	{Name: "no-upper-clamp", Pitfall: "gradient-clamp", Says: "clamps the gradient from below only, so that it grows past 1"},
	{Name: "no-lower-clamp", Pitfall: "gradient-clamp", Says: "clamps the gradient from above only, so that it falls below 0.5"},
	{Name: "ignores-tolerance", Pitfall: "gradient-clamp", Says: "leaves RTTTolerance out of the gradient: max(0.5, min(1, long/short))"},
	{Name: "tolerance-after-clamp", Pitfall: "gradient-clamp", Says: "multiplies the clamped ratio by RTTTolerance: RTTTolerance*max(0.5, min(1, long/short))"},
	{Name: "inverted-gradient", Pitfall: "gradient-clamp", Says: "takes the gradient the other way up: max(0.5, min(1, RTTTolerance*short/long))"},
	// smoothing: n = est*gradient + queue, est*(1-Smoothing) + n*Smoothing.
	{Name: "no-smoothing", Pitfall: "smoothing", Says: "takes the new limit whole, ignoring Smoothing"},
	{Name: "smoothing-swapped", Pitfall: "smoothing", Says: "gives the new limit the weight 1-Smoothing and the old one Smoothing, the other way round"},
	{Name: "queue-after-smoothing", Pitfall: "smoothing", Says: "adds the queue allowance after the smoothing, not to the new limit before it"},
	// floor-ceiling: est = clamp(n, MinLimit, MaxLimit), and kept so.
	{Name: "no-limit-clamp", Pitfall: "floor-ceiling", Says: "never clamps the limit into [MinLimit, MaxLimit]"},
	{Name: "no-min-limit", Pitfall: "floor-ceiling", Says: "clamps the limit to MaxLimit but not to MinLimit"},
	{Name: "no-max-limit", Pitfall: "floor-ceiling", Says: "clamps the limit to MinLimit but not to MaxLimit"},
	{Name: "clamp-before-smoothing", Pitfall: "floor-ceiling", Says: "clamps the new limit into [MinLimit, MaxLimit] before the smoothing, not after it"},
	{Name: "zero-min-limit-is-default", Pitfall: "floor-ceiling", Says: "takes a MinLimit of 0 as unset and floors the limit at DefaultConfig's MinLimit, 20, instead"},
	{Name: "zero-min-limit-is-four", Pitfall: "floor-ceiling", Says: "takes a MinLimit of 0 as unset and floors the limit at 4 instead, the allowance a nil QueueSize stands for"},
	{Name: "clamp-not-kept", Pitfall: "floor-ceiling", Says: "clamps the limit it returns but keeps the unclamped one for the next sample"},
	// exactness: the rest of the contract.
	{Name: "limit-rounds", Pitfall: check.Exactness, Says: "updates right but whose Limit() rounds the limit to the nearest integer instead of down"},
	{Name: "rounds-limit", Pitfall: check.Exactness, Says: "rounds the limit to the nearest integer, not down, in Update and Limit"},
	{Name: "whole-limit", Pitfall: check.Exactness, Says: "keeps the limit as a whole number between samples, rounded down, instead of a float"},
	{Name: "nil-queue-is-zero", Pitfall: check.Exactness, Says: "takes a nil QueueSize as an allowance of 0, not 4"},
})

// mistaken returns New for the contract's limit with the named mistake.
func mistaken(mistake string) New {
	return func(cfg Config) Limit { return &limit{f: flaw(mistake), cfg: cfg, est: cfg.InitialLimit} }
}

// flaw is the mistake a flawed limit makes.
type flaw string

// limit is the contract's limit (see model) written again with a switch
// for each mistake.
type limit struct {
	f   flaw
	cfg Config
	est float64
	// The long RTT: samples seen (counted up to the warm-up's end), their
	// sum, the value.
	seen      int
	sum, long float64
}

// warmup is how many samples the long RTT plainly averages.
func (l *limit) warmup() int {
	switch l.f {
	case "mean-of-first-9":
		return warmup - 1
	case "mean-of-first-11":
		return warmup + 1
	case "average-from-first-sample":
		return 1
	case "average-from-zero":
		return 0
	}
	return warmup
}

// addLong adds a sample to the long RTT and returns its new value.
func (l *limit) addLong(short float64) float64 {
	if l.seen < l.warmup() {
		l.seen++
		l.sum += short
		if l.f == "warmup-keeps-decay" {
			l.long += (short - l.long) / float64(l.seen)
		} else {
			l.long = l.sum / float64(l.seen)
		}
		return l.long
	}
	w := l.cfg.LongWindow
	factor := 2 / (float64(w) + 1)
	switch l.f {
	case "integer-factor":
		factor = float64(2 / (w + 1))
	case "factor-over-window":
		factor = 2 / float64(w)
	case "average-weights-swapped":
		factor = 1 - factor
	}
	l.long = (1-factor)*l.long + factor*short
	return l.long
}

func (l *limit) appLimited(inflight int) bool {
	switch l.f {
	case "never-app-limited":
		return false
	case "app-limited-at-half":
		return float64(inflight) <= l.est/2
	case "app-limited-by-whole-limit":
		return inflight < int(l.est)/2
	}
	return float64(inflight) < l.est/2
}

func (l *limit) Update(rttNs uint64, inflight int) int {
	f := l.f
	queue := 4.0
	if f == "nil-queue-is-zero" {
		queue = 0
	}
	if l.cfg.QueueSize != nil {
		queue = l.cfg.QueueSize(int(l.est))
	}
	short := float64(rttNs)
	if f == "app-limited-skips-rtt" && l.appLimited(inflight) {
		return l.result()
	}
	long := l.addLong(short)
	decays := long/short > 2
	if f == "decay-when-short-is-long" {
		decays = short/long > 2
	}
	if f == "no-decay-when-app-limited" && l.appLimited(inflight) {
		return l.result()
	}
	if decays && f != "decay-lost" {
		l.long *= 0.95
	}
	if l.appLimited(inflight) {
		return l.result()
	}

	ratio := l.cfg.RTTTolerance * long / short
	switch f {
	case "ignores-tolerance", "tolerance-after-clamp":
		ratio = long / short
	case "inverted-gradient":
		ratio = l.cfg.RTTTolerance * short / long
	}
	gradient := math.Max(0.5, math.Min(1, ratio))
	switch f {
	case "no-upper-clamp":
		gradient = math.Max(0.5, ratio)
	case "no-lower-clamp":
		gradient = math.Min(1, ratio)
	case "tolerance-after-clamp":
		gradient *= l.cfg.RTTTolerance
	}

	s := l.cfg.Smoothing
	n := l.est*gradient + queue
	if f == "queue-after-smoothing" {
		n = l.est * gradient
	}
	if f == "clamp-before-smoothing" {
		n = l.clamp(n)
	}
	switch f {
	case "no-smoothing":
	case "smoothing-swapped":
		n = l.est*s + n*(1-s)
	default:
		n = l.est*(1-s) + n*s
	}
	if f == "queue-after-smoothing" {
		n += queue
	}
	if f != "clamp-before-smoothing" && f != "clamp-not-kept" {
		n = l.clamp(n)
	}
	l.est = n
	if f == "whole-limit" {
		l.est = math.Floor(n)
	}
	return l.result()
}

// clamp is the clamp into [MinLimit, MaxLimit], with the mistake.
func (l *limit) clamp(n float64) float64 {
	lo, hi := l.cfg.MinLimit, l.cfg.MaxLimit
	switch {
	case l.f == "zero-min-limit-is-default" && lo <= 0:
		lo = 20
	case l.f == "zero-min-limit-is-four" && lo <= 0:
		lo = 4
	}
	switch l.f {
	case "no-limit-clamp":
		return n
	case "no-min-limit":
		return math.Min(n, hi)
	case "no-max-limit":
		return math.Max(n, lo)
	}
	return math.Min(math.Max(n, lo), hi)
}

// result is what Update returns.
func (l *limit) result() int {
	switch l.f {
	case "rounds-limit":
		return int(math.Round(l.est))
	case "clamp-not-kept":
		return int(l.clamp(l.est))
	}
	return int(l.est)
}

func (l *limit) Limit() int {
	if l.f == "limit-rounds" {
		return int(math.Round(l.est))
	}
	return l.result()
}
