package check

import "math"

// Smaller returns simpler values than x for the shrinker, most aggressive
// first: 0, 1, x/2, then x minus ever smaller fractions of itself down to
// x-1, so that a value which cannot go far still shrinks in a few steps
// instead of one at a time. Every candidate is strictly smaller, so
// shrinking ends.
func Smaller(x uint64) []uint64 {
	if x == 0 {
		return nil
	}
	c := []uint64{0}
	if x > 1 {
		c = append(c, 1)
	}
	for d := x / 2; d > 0; d /= 2 {
		if v := x - d; v > 1 {
			c = append(c, v)
		}
	}
	return c
}

// Simpler is Smaller for values that may matter for being huge: candidates
// move x toward whichever end of the uint64 range is nearer (0 or
// MaxUint64) after trying 0, so a failure that needs a value next to
// MaxUint64 shrinks to MaxUint64 itself or to a small distance from it.
func Simpler(x uint64) []uint64 {
	if x <= math.MaxUint64/2 {
		return Smaller(x)
	}
	d := math.MaxUint64 - x
	c := []uint64{0}
	for _, s := range Smaller(d) {
		c = append(c, math.MaxUint64-s)
	}
	return c
}

// SmallerWithin is Smaller keeping only candidates >= lo.
func SmallerWithin(x, lo uint64) []uint64 {
	var c []uint64
	for _, v := range Smaller(x - lo) {
		c = append(c, lo+v)
	}
	return c
}

// Vary appends to out one copy of o per value in vs, each with that value
// set by set: the candidates of shrinking one field of a call.
func Vary[T any](out []T, o T, vs []uint64, set func(*T, uint64)) []T {
	for _, v := range vs {
		c := o
		set(&c, v)
		out = append(out, c)
	}
	return out
}
