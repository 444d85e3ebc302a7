package grader_test

import (
	"math/bits"
	"strconv"

	"ratelab/grader/report"
)

var tokenbucketClaims = []claim{
	// The partial-take check's why: shown only where its trap, a request
	// for more than the bucket holds, is in the script.
	{"tokenbucket", "asked for more tokens than the bucket held", func(ce *report.Counterexample, _ string) bool {
		return refused(ce, len(ce.Steps))
	}},
	{"tokenbucket", "in parts smaller than one token", func(ce *report.Counterexample, msg string) bool {
		return smallParts(gapsFrom(ce, 1), msg, setupArg(ce, "ratePerSec"))
	}},
	// The fractional-tokens check's why, after its explanation or alone.
	{"tokenbucket", "Those parts must add up", func(ce *report.Counterexample, _ string) bool {
		rate := setupArg(ce, "ratePerSec")
		return slicesAny(gaps(ce), func(d uint64) bool { return belowToken(d, rate) })
	}},
	// "... apart at 3 tokens/s: 1 token earned by the last call".
	{"tokenbucket", "earned by the last call", func(ce *report.Counterexample, msg string) bool {
		rate := setupArg(ce, "ratePerSec")
		return all(msg, `apart at `+numRE+` tokens/s: `, func(q []uint64) bool { return q[0] == rate }) &&
			earned(gapsFrom(ce, 1), msg, `tokens/s: ([0-9.e+-]+) tokens? earned by the last call`, rate)
	}},
	// The capacity check's why; its domain moves time by whole token
	// intervals only, at rates that divide 10^9.
	{"tokenbucket", "time only moved forward by whole tokens", func(ce *report.Counterexample, _ string) bool {
		rate := setupArg(ce, "ratePerSec")
		for _, d := range gaps(ce) {
			if hi, lo := bits.Mul64(d, rate); bits.Rem64(hi, lo, 1_000_000_000) != 0 {
				return false
			}
		}
		return true
	}},
	{"tokenbucket", "After ten calls 100 µs apart at 1,000 tokens/s", func(ce *report.Counterexample, _ string) bool {
		n := 0
		for _, d := range gaps(ce) {
			if d == 100_000 {
				n++
			}
		}
		return setupArg(ce, "ratePerSec") == 1000 && n >= 10
	}},
}

// refused reports whether one of the first n steps of ce is a
// TryAcquire the contract refuses.
func refused(ce *report.Counterexample, n int) bool {
	for _, s := range ce.Steps[:n] {
		if s.Name == "TryAcquire" && s.Want == "false" {
			return true
		}
	}
	return false
}

// earned reports whether msg quotes, where re matches, what the moves g
// earn at rate, to the 3 digits shown.
func earned(g []uint64, msg, re string, rate uint64) bool {
	sum := 0.0
	for _, d := range g {
		sum += float64(d) * float64(rate) / 1e9
	}
	qs := quotesText(msg, re)
	for _, q := range qs {
		v, err := strconv.ParseFloat(q[0], 64)
		if err != nil || strconv.FormatFloat(v, 'g', 3, 64) != strconv.FormatFloat(sum, 'g', 3, 64) {
			return false
		}
	}
	return len(qs) > 0
}

// smallParts reports whether every forward move g of a clock earns less
// than a token at rate, and every part msg quotes ("2_000 ns (0.5 of a
// token)") is one of them, in order, its share right to the 3 digits
// shown.
func smallParts(g []uint64, msg string, rate uint64) bool {
	if len(g) == 0 || !slicesAll(g, func(d uint64) bool { return belowToken(d, rate) }) {
		return false
	}
	qs := quotesText(msg, numRE+` ns \(([0-9.e+-]+) of a token\)`)
	for i, q := range qs {
		if i >= len(g) || num(q[0]) != g[i] {
			return false
		}
		share, err := strconv.ParseFloat(q[1], 64)
		if err != nil || strconv.FormatFloat(share, 'g', 3, 64) != strconv.FormatFloat(float64(g[i])*float64(rate)/1e9, 'g', 3, 64) {
			return false
		}
	}
	return len(qs) > 0
}
