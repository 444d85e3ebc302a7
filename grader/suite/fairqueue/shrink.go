package fairqueue

import (
	"slices"

	"ratelab/grader/check"
)

func shrinkSetup(s setup) []setup {
	var out []setup
	for _, q := range check.SmallerWithin(s.Quantum, 1) {
		out = append(out, setup{q})
	}
	return out
}

func shrinkOp(o op) []op {
	if o.Pop || o.Len {
		return nil
	}
	var out []op
	for _, s := range check.Smaller(uint64(o.Session)) {
		c := o
		c.Session = uint32(s)
		out = append(out, c)
	}
	return check.Vary(out, o, simplerCosts(o.Cost), func(c *op, v uint64) { c.Cost = v })
}

// simplerCosts returns the costs simpler than c, most aggressive first:
// those of check.SmallerWithin(c, 1) (1, 2, then c less halving
// distances), each after c divided by the powers of two that leave at
// least 3, so that a huge cost (up to 64×2^32) can fall far in one step
// instead of by halving distances, one shrink at a time.
func simplerCosts(c uint64) []uint64 {
	near := check.SmallerWithin(c, 1)
	var out []uint64
	for k := 63; k >= 1; k-- {
		if v := c >> k; v >= 3 && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return slices.Concat(near[:min(2, len(near))], out, near[min(2, len(near)):])
}
