package fairqueue

import (
	"slices"

	"ratelab/grader/check"
)

// shrinkSetup keeps the largest quantum, 1<<32, where it is: a script
// drawn with it fails on costs set against it (its multiples and
// neighbours), and a smaller quantum moves every such cost's relation to
// it, so that they would shrink together one halving at a time, each
// step a whole pass over the script's calls.
func shrinkSetup(s setup) []setup {
	if s.Quantum == 1<<32 {
		return nil
	}
	var out []setup
	for _, q := range simplerCosts(s.Quantum) {
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

// simplerCosts returns the costs (or quanta) simpler than c, most
// aggressive first:
// those of check.SmallerWithin(c, 1) (1, 2, then c less halving
// distances), each after c divided by the powers of two that leave at
// least 3, so that a huge cost (up to 64×2^32) or quantum (up to 2^32)
// can fall far in one step instead of by halving distances, one shrink
// at a time.
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
