package check

import (
	"math"
	"slices"
	"strconv"
)

// Tol is the relative tolerance with which the week 4 suites compare
// floats with their models.
const Tol = 1e-9

// Near reports whether a and b agree within Tol, relative to the larger.
func Near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= Tol*max(math.Abs(a), math.Abs(b))
}

// F formats a float argument exactly (its shortest representation), so a
// learner can paste it into Go.
func F(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Shrinking floats: a candidate is simpler when it prints shorter, or as
// short and nearer 0. Every candidate SimplerFloats keeps is strictly
// simpler, so shrinking ends.

// SimplerFloat reports whether c is simpler than x.
func SimplerFloat(c, x float64) bool {
	lc, lx := len(F(c)), len(F(x))
	return lc < lx || lc == lx && math.Abs(c) < math.Abs(x)
}

// SimplerFloats returns the candidates simpler than x, in their order,
// then x rounded to 1, 2 and 3 significant digits where that is simpler.
// NaN is never a candidate.
func SimplerFloats(x float64, cands ...float64) []float64 {
	var out []float64
	for _, c := range slices.Concat(cands, Rounded(x)) {
		if !math.IsNaN(c) && SimplerFloat(c, x) {
			out = append(out, c)
		}
	}
	return out
}

// Rounded returns x rounded to 1, 2 and 3 significant digits (nothing for
// 0, the infinities and NaN).
func Rounded(x float64) []float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	var out []float64
	for _, p := range []int{1, 2, 3} {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', p, 64), 64)
		out = append(out, r)
	}
	return out
}

// VaryFloats is Vary for a float field: it appends to out one copy of o
// per value in vs, each with that value set by set.
func VaryFloats[T any](out []T, o T, vs []float64, set func(*T, float64)) []T {
	for _, v := range vs {
		c := o
		set(&c, v)
		out = append(out, c)
	}
	return out
}
