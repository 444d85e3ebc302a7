package grader_test

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"ratelab/grader/report"
)

var governorClaims = []claim{
	// The whys of slow-start, back-off, recover-then-probe and
	// floor-ceiling: each holds because its check's domain draws only
	// such windows or Decide calls (see its opOK).
	{"governor", "Every window here is clean and nothing has failed yet", func(ce *report.Counterexample, _ string) bool {
		return slicesAll(ce.Steps, func(s report.Step) bool { return s.Name != "Observe" || arg(s.Args, "cumFailures") == 0 })
	}},
	// back-off: Offer = current*clamp(1-frac, 0.25, 0.9) "(above the floor
	// here)".
	{"governor", "(above the floor here)", func(ce *report.Counterexample, _ string) bool {
		return decides(ce, func(frac, current, _ float64) bool {
			return frac > cfgF(ce, "High") && current*severity(frac) >= cfgF(ce, "Floor")
		})
	}},
	{"governor", "These windows are clean with a congestion memory", func(ce *report.Counterexample, _ string) bool {
		return decides(ce, func(frac, _, lastBad float64) bool {
			return (frac == 0 || frac < cfgF(ce, "Low")) && lastBad > 0
		})
	}},
	// floor-ceiling: a breach whose back-off goes below Floor, or a clean
	// window whose climb (x2 without a memory, a probe of max(1, 2% of
	// LastBad) from 75% of it on) goes above Ceiling.
	{"governor", "Each of these moves would leave [Floor, Ceiling]", func(ce *report.Counterexample, _ string) bool {
		return decides(ce, func(frac, c, lb float64) bool {
			switch {
			case frac > cfgF(ce, "High"):
				return c*severity(frac) < cfgF(ce, "Floor")
			case lb == 0:
				return 2*c > cfgF(ce, "Ceiling")
			}
			return c >= 0.75*lb && c+max(1, 0.02*lb) > cfgF(ce, "Ceiling")
		})
	}},
	// climb-after-back-off, a case: its script opens at 100 and its first
	// window has 50 of 100 failed.
	{"governor", "After a back-off from 100 at 50% failures", func(ce *report.Counterexample, _ string) bool {
		return cfgF(ce, "Start") == 100 && strings.Contains(ce.Steps[0].Call, "[window: 50 of 100 failed]")
	}},
}

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

// decides reports whether ce has a Decide and ok holds of each one's
// frac, current and lastBad.
func decides(ce *report.Counterexample, ok func(frac, current, lastBad float64) bool) bool {
	n := 0
	for _, s := range ce.Steps {
		if s.Name == "Decide" {
			n++
			if !ok(argF(s.Args, "frac"), argF(s.Args, "current"), argF(s.Args, "lastBad")) {
				return false
			}
		}
	}
	return n > 0
}

// severity is the share of the offer a breach keeps: 1−frac, within
// [0.25, 0.9].
func severity(frac float64) float64 { return min(0.9, max(0.25, 1-frac)) }

// cfgF is the config field name shown in ce's setup ("Floor: 1"), NaN if
// it shows none.
func cfgF(ce *report.Counterexample, name string) float64 {
	m := regexp.MustCompile(`\b` + name + `: ([-0-9.e+]+)`).FindStringSubmatch(ce.Setup)
	if m == nil {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// argF is the argument name of a call as a float (NaN if it has none).
func argF(args map[string]any, name string) float64 {
	switch v := args[name].(type) {
	case string:
		f, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64)
		if err == nil {
			return f
		}
	case float64:
		return v
	}
	return math.NaN()
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
