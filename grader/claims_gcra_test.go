package grader_test

import (
	"math/bits"

	"ratelab/grader/report"
)

var gcraClaims = []claim{
	// The rounding check's why; its domain draws only such rates.
	{"gcra", "ratePerSec does not divide 10^9", func(ce *report.Counterexample, _ string) bool {
		r := setupArg(ce, "ratePerSec")
		return r > 0 && 1_000_000_000%r != 0
	}},
	{"gcra", "All these calls come at the time the GCRA was made", func(ce *report.Counterexample, _ string) bool {
		raw, _, _ := clock(ce)
		return slicesAll(raw, func(n uint64) bool { return n == setupArg(ce, "nowNs") })
	}},
	{"gcra", "Time only moves forward up to this call", func(ce *report.Counterexample, _ string) bool { return !steppedBack(ce) }},
	// "call 2 at 0 ns is 1 ns before the latest time seen, so it counts as 1 ns".
	{"gcra", "before the latest time seen, so it counts as", func(ce *report.Counterexample, msg string) bool {
		raw, _, _ := clock(ce)
		return all(msg, `call (\d+) at `+numRE+` ns is `+numRE+` ns before the latest time seen, so it counts as `+numRE+` ns`, func(q []uint64) bool {
			i := int(q[0]) - 1
			return raw[i] == q[1] && before(ce, i) == q[3] && q[3]-q[1] == q[2] && q[1] < q[3]
		})
	}},
	{"gcra", "Nothing in this script comes near 64 bits", func(ce *report.Counterexample, _ string) bool {
		raw, _, _ := clock(ce)
		rate := setupArg(ce, "ratePerSec")
		return setupArg(ce, "nowNs") < 1<<63 && slicesAll(raw, func(n uint64) bool { return n < 1<<63 }) &&
			slicesAll(gaps(ce), func(d uint64) bool { hi, _ := bits.Mul64(d, rate); return hi == 0 })
	}},
	{"gcra", "the GCRA is made at", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `the GCRA is made at `+numRE+` ns`, func(q []uint64) bool { return q[0] == setupArg(ce, "nowNs") && q[0] >= 1<<63 })
	}},
	// "call 2 comes at 9_223_372_036_854_775_808 ns", the first past 2^63.
	{"gcra", " comes at ", func(ce *report.Counterexample, msg string) bool {
		raw, _, _ := clock(ce)
		return all(msg, `call (\d+) comes at `+numRE+` ns`, func(q []uint64) bool {
			i := int(q[0]) - 1
			return raw[i] == q[1] && q[1] >= 1<<63 && before(ce, i) < 1<<63
		})
	}},
	// "call 1 comes 5 ns after New, an idle time whose product with
	// ratePerSec=3 passes 2^64".
	{"gcra", "an idle time whose product with ratePerSec", func(ce *report.Counterexample, msg string) bool {
		raw, _, _ := clock(ce)
		qs := quotesText(msg, `call (\d+) comes `+numRE+` ns after (New|the latest time before it), an idle time whose product with ratePerSec=`+numRE+` passes 2\^64`)
		for _, q := range qs {
			i, idle, rate := int(num(q[0]))-1, num(q[1]), num(q[3])
			hi, _ := bits.Mul64(idle, rate)
			if (q[2] == "New") != (i == 0) || rate != setupArg(ce, "ratePerSec") || raw[i] <= before(ce, i) || raw[i]-before(ce, i) != idle || hi == 0 {
				return false
			}
		}
		return len(qs) > 0
	}},
}
