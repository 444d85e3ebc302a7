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
