package grader_test

import (
	"math"
	"regexp"
	"strconv"

	"ratelab/grader/report"
)

var gradient2Claims = []claim{
	// The whys of warmup and smoothing: their domains draw only such
	// RTTs.
	{"gradient2", "Here the RTT rises", func(ce *report.Counterexample, _ string) bool {
		rtts := argsOf(ce, "Update", "rttNs")
		for i := 1; i < len(rtts); i++ {
			if rtts[i] < rtts[i-1] {
				return false
			}
		}
		return len(rtts) > 1 && rtts[len(rtts)-1] > rtts[0]
	}},
	// long-rtt-decay: a sample before the last that decays the long RTT,
	// app-limited (inflight below half the limit before it, where the
	// answer before shows that limit).
	{"gradient2", "made the long RTT more than twice the short one", func(ce *report.Counterexample, _ string) bool {
		ss := samples(ce)
		return slicesAny(ss[:len(ss)-1], func(s sample) bool {
			return s.long/s.short > 2 && !(s.inflight >= s.est/2)
		})
	}},
	{"gradient2", "Each sample here is in a corner of the clamp", func(ce *report.Counterexample, _ string) bool {
		tol := cfgF(ce, "RTTTolerance")
		return slicesAll(samples(ce), func(s sample) bool { g := tol * s.long / s.short; return g >= 1 || g <= 0.5 })
	}},
	{"gradient2", "The RTT is constant here", func(ce *report.Counterexample, _ string) bool {
		rtts := argsOf(ce, "Update", "rttNs")
		return len(rtts) > 0 && slicesAll(rtts, func(r uint64) bool { return r == rtts[0] })
	}},
}

// sample is one Update of a gradient2 script, its repeats counted one by
// one: its short and long RTTs (the long one after adding it, before any
// decay), its inflight, and the limit before it as the contract's answer
// to the call before shows it (NaN where it does not).
type sample struct {
	short, long, inflight, est float64
}

// samples replays the long RTT of the contract's gradient2 over the
// Updates of ce: the plain mean of the samples for the first 10, then an
// exponential average with factor 2/(LongWindow+1); where long/short > 2,
// the stored long RTT is multiplied by 0.95 for the samples to come.
func samples(ce *report.Counterexample) []sample {
	f := 2 / (cfgF(ce, "LongWindow") + 1)
	est := cfgF(ce, "InitialLimit")
	var out []sample
	stored, sum := 0.0, 0.0
	for _, s := range ce.Steps {
		if s.Name != "Update" {
			continue
		}
		times := 1
		if m := regexp.MustCompile(`×(\d+)$`).FindStringSubmatch(s.Call); m != nil {
			times, _ = strconv.Atoi(m[1])
		}
		for range times {
			short := argF(s.Args, "rttNs")
			sum += short
			long := stored*(1-f) + short*f
			if len(out) < 10 {
				long = sum / float64(len(out)+1)
			}
			stored = long
			if long/short > 2 {
				stored = long * 0.95
			}
			out = append(out, sample{short, long, argF(s.Args, "inflight"), est})
		}
		est = math.NaN()
		if m := regexp.MustCompile(`\(limit ([0-9.e+]+)\)`).FindStringSubmatch(s.Want); m != nil {
			est, _ = strconv.ParseFloat(m[1], 64)
		}
	}
	return out
}
