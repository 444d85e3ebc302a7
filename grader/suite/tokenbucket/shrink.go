package tokenbucket

import (
	"ratelab/grader/check"
)

func shrinkSetup(s setup) []setup {
	var out []setup
	for _, c := range check.Simpler(s.Capacity) {
		out = append(out, setup{c, s.Rate, s.Start})
	}
	for _, r := range check.Simpler(s.Rate) {
		out = append(out, setup{s.Capacity, r, s.Start})
	}
	for _, t := range check.Simpler(s.Start) {
		out = append(out, setup{s.Capacity, s.Rate, t})
	}
	return out
}

func shrinkOp(o op) []op {
	var out []op
	if o.Available {
		c := o
		c.Available, c.N = false, 1
		out = append(out, c)
	}
	out = check.Vary(out, o, check.Simpler(o.Wait), func(c *op, v uint64) { c.Wait = v })
	out = check.Vary(out, o, check.Smaller(o.Back), func(c *op, v uint64) { c.Back = v })
	out = check.Vary(out, o, check.Simpler(o.N), func(c *op, v uint64) { c.N = v })
	return out
}
