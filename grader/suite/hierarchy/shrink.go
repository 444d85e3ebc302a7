package hierarchy

import "ratelab/grader/check"

func shrinkSetup(s setup) []setup {
	var out []setup
	for _, t := range check.Simpler(s.Start) {
		out = append(out, setup{t})
	}
	return out
}

// merge drops call a, keeping the time it moved forward: b then waits
// a.Wait+b.Wait. Adds and steps back are not folded.
func merge(a, b op) (op, bool) {
	if a.Kind == add || b.Kind == add {
		return b, false
	}
	return check.MergeWaits(a, b)
}

func shrinkOp(o op) []op {
	var out []op
	if o.Kind == add {
		if o.Node != rootID {
			c := o
			c.Node = rootID
			out = append(out, c)
		}
		out = check.Vary(out, o, check.Simpler(o.N), func(c *op, v uint64) { c.N = v })
		out = check.Vary(out, o, check.Simpler(o.Rate), func(c *op, v uint64) { c.Rate = v })
		return out
	}
	if o.Kind == available {
		c := o
		c.Kind, c.N = acquire, 1
		out = append(out, c)
	}
	for id := 0; id < o.Node && id < 4; id++ {
		c := o
		c.Node = id
		out = append(out, c)
	}
	out = check.Vary(out, o, check.Simpler(o.Wait), func(c *op, v uint64) { c.Wait = v })
	out = check.Vary(out, o, check.Smaller(o.Back), func(c *op, v uint64) { c.Back = v })
	if o.Kind == acquire {
		out = check.Vary(out, o, check.Simpler(o.N), func(c *op, v uint64) { c.N = v })
	}
	return out
}
