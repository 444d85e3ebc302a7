package fairqueue

import "ratelab/grader/check"

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
	return check.Vary(out, o, check.SmallerWithin(o.Cost, 1), func(c *op, v uint64) { c.Cost = v })
}
