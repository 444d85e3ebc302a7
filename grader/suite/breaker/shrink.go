package breaker

import "ratelab/grader/check"

// shrinkSetup lists simpler setups: smaller thresholds and probe counts, a
// simpler OpenNs and start.
func shrinkSetup(s setup) []setup {
	var out []setup
	for _, v := range check.SmallerWithin(uint64(s.Cfg.FailureThreshold), 1) {
		c := s
		c.Cfg.FailureThreshold = uint32(v)
		out = append(out, c)
	}
	for _, v := range check.SmallerWithin(uint64(s.Cfg.HalfOpenProbes), 1) {
		c := s
		c.Cfg.HalfOpenProbes = uint32(v)
		out = append(out, c)
	}
	for _, v := range check.Simpler(s.Cfg.OpenNs) {
		c := s
		c.Cfg.OpenNs = max(v, 1)
		if c.Cfg.OpenNs != s.Cfg.OpenNs { // 1 is as simple as it gets: no candidate equal to s itself
			out = append(out, c)
		}
	}
	for _, v := range check.Simpler(s.Start) {
		c := s
		c.Start = v
		out = append(out, c)
	}
	return out
}

// merge drops call a, keeping the time it moved forward: b then waits
// a.Wait+b.Wait. Steps back are not folded. Any call may go: a report
// names its ticket from the newest (op.Of), so dropping an Allow leaves
// the later reports on the tickets they named, and a script whose reports
// no longer find their tickets leaves the domain (Valid).
func merge(a, b op) (op, bool) {
	return check.MergeWaits(a, b)
}

// shrinkOp lists simpler calls: an earlier ticket, a shorter wait, a
// shorter step back.
func shrinkOp(o op) []op {
	var out []op
	if o.Call == doneCall && o.Bogus == issued && o.Of > 0 {
		for _, v := range check.Smaller(uint64(o.Of)) {
			c := o
			c.Of = int(v)
			out = append(out, c)
		}
	}
	out = check.Vary(out, o, check.Simpler(o.Wait), func(c *op, v uint64) { c.Wait = v })
	out = check.Vary(out, o, check.Smaller(o.Back), func(c *op, v uint64) { c.Back = v })
	return out
}
