package slidingwindow

import (
	"ratelab/grader/check"
)

func shrinkSetup(s setup) []setup {
	var out []setup
	for _, l := range check.Smaller(uint64(s.Limit)) {
		out = append(out, setup{uint32(l), s.WindowNs, s.Buckets})
	}
	k, b, rem := uint64(s.Buckets), s.bucketNs(), s.WindowNs%uint64(s.Buckets)
	// Fewer buckets of the same length, then shorter buckets, keeping
	// the remainder (if it still fits) or dropping it.
	for _, k2 := range check.SmallerWithin(k, 1) {
		out = append(out, setup{s.Limit, k2*b + min(rem, k2-1), int(k2)})
	}
	for _, b2 := range check.SmallerWithin(b, 1) {
		out = append(out, setup{s.Limit, k*b2 + rem, s.Buckets}, setup{s.Limit, k * b2, s.Buckets})
	}
	if rem > 0 {
		out = append(out, setup{s.Limit, k * b, s.Buckets})
	}
	for _, w := range check.Simpler(s.WindowNs) {
		out = append(out, setup{s.Limit, w, s.Buckets})
	}
	return out
}

func shrinkOp(o op) []op {
	var out []op
	if !o.Count {
		c := o
		c.Count = true
		out = append(out, c)
	}
	jumps := check.Simpler(o.Jump)
	if o.Jump <= 64 {
		// A jump is a count of buckets, and which count matters (the
		// window's length, once more, twice more): try every one.
		jumps = nil
		for j := range o.Jump {
			jumps = append(jumps, j)
		}
	}
	out = check.Vary(out, o, jumps, func(c *op, v uint64) { c.Jump = v })
	out = check.Vary(out, o, check.Smaller(o.Off), func(c *op, v uint64) { c.Off = v })
	out = check.Vary(out, o, check.Smaller(o.Back), func(c *op, v uint64) { c.Back = v })
	return out
}
