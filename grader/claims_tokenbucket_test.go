package grader_test

import (
	"math/big"
	"math/bits"
	"strings"

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
			earned(gapsFrom(ce, 1), msg, `tokens/s: ([0-9.]+) (tokens?) earned by the last call`, rate)
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
// earn at rate, every digit of it, with "token" for exactly one and
// "tokens" for any other amount.
func earned(g []uint64, msg, re string, rate uint64) bool {
	sum := new(big.Int)
	for _, d := range g {
		sum.Add(sum, units(d, rate))
	}
	want := exactTokens(sum)
	qs := quotesText(msg, re)
	for _, q := range qs {
		if q[0] != want || (q[1] == "token") != (want == "1") {
			return false
		}
	}
	return len(qs) > 0
}

// units is what a move of d ns earns at rate tokens/s, in 10^-9 token.
func units(d, rate uint64) *big.Int {
	return new(big.Int).Mul(new(big.Int).SetUint64(d), new(big.Int).SetUint64(rate))
}

// exactTokens writes units of 10^-9 token as tokens in full, by way of
// big.Rat's decimals: what a message must quote, not a rounding of it.
func exactTokens(units *big.Int) string {
	s := new(big.Rat).SetFrac(units, big.NewInt(1_000_000_000)).FloatString(9)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// smallParts reports whether every forward move g of a clock earns less
// than a token at rate, and every part msg quotes ("2_000 ns (0.5 of a
// token)") is one of them, in order, with every digit of its share.
func smallParts(g []uint64, msg string, rate uint64) bool {
	if len(g) == 0 || !slicesAll(g, func(d uint64) bool { return belowToken(d, rate) }) {
		return false
	}
	qs := quotesText(msg, numRE+` ns \(([0-9.]+) of a token\)`)
	for i, q := range qs {
		if i >= len(g) || num(q[0]) != g[i] || q[1] != exactTokens(units(g[i], rate)) {
			return false
		}
	}
	return len(qs) > 0
}
