package throttle

import "ratelab/grader/check"

// shrinkSetup lists simpler setups: smaller limits, windows, TTLs and
// thresholds, an earlier start. The domain's Valid keeps only those that
// stay in its corner.
func shrinkSetup(s setup) []setup {
	var out []setup
	c := s.Cfg
	with := func(vs []uint64, set func(c *Config, v uint64)) {
		for _, v := range vs {
			n := c
			set(&n, v)
			out = append(out, setup{Cfg: n, Start: s.Start})
		}
	}
	with(check.Smaller(uint64(c.Rate.MaxCalls)), func(c *Config, v uint64) { c.Rate.MaxCalls = uint32(v) })
	with(check.Smaller(c.Rate.WindowNs), func(c *Config, v uint64) { c.Rate.WindowNs = v })
	with(check.Smaller(c.Breaker.TTLNs), func(c *Config, v uint64) { c.Breaker.TTLNs = v })
	with(check.Smaller(uint64(c.Breaker.DegradedWriteLimit)), func(c *Config, v uint64) { c.Breaker.DegradedWriteLimit = uint32(v) })
	if c.Breaker.AutoRecover {
		with([]uint64{0}, func(c *Config, _ uint64) { c.Breaker.AutoRecover = false })
	}
	k := c.Congestion
	with(check.Smaller(k.WindowNs), func(c *Config, v uint64) { c.Congestion.WindowNs = v })
	with(check.Smaller(uint64(k.LowBelow)), func(c *Config, v uint64) { c.Congestion.LowBelow = uint32(v) })
	with(check.Smaller(uint64(k.HighAbove)), func(c *Config, v uint64) { c.Congestion.HighAbove = uint32(v) })
	with(check.Smaller(uint64(k.ReduceBps)), func(c *Config, v uint64) { c.Congestion.ReduceBps = uint32(v) })
	with(check.Smaller(uint64(k.IncreaseBps)), func(c *Config, v uint64) { c.Congestion.IncreaseBps = uint32(v) })
	with(check.Smaller(uint64(k.MinMaxCalls)), func(c *Config, v uint64) { c.Congestion.MinMaxCalls = uint32(v) })
	with(check.Smaller(uint64(k.MaxMaxCalls)), func(c *Config, v uint64) { c.Congestion.MaxMaxCalls = uint32(v) })
	for _, t := range check.Smaller(s.Start) {
		out = append(out, setup{Cfg: c, Start: t})
	}
	return out
}

// merge drops call a, keeping the time it moved forward: b then waits
// a.Wait+b.Wait. Steps back are not folded, nor into a call without a
// time.
func merge(a, b op) (op, bool) {
	if !b.Call.timed() && a.Wait > 0 {
		return b, false
	}
	return check.MergeWaits(a, b)
}

func shrinkOp(o op) []op {
	var out []op
	out = check.Vary(out, o, check.Smaller(o.Addr), func(c *op, v uint64) { c.Addr = v })
	if o.Call == stateCall && o.State != Normal {
		c := o
		c.State--
		out = append(out, c)
	}
	out = check.Vary(out, o, check.Smaller(uint64(o.Limit.MaxCalls)), func(c *op, v uint64) { c.Limit.MaxCalls = uint32(v) })
	out = check.Vary(out, o, check.Smaller(o.Limit.WindowNs), func(c *op, v uint64) { c.Limit.WindowNs = v })
	out = check.Vary(out, o, check.Smaller(o.Wait), func(c *op, v uint64) { c.Wait = v })
	out = check.Vary(out, o, check.Smaller(o.Back), func(c *op, v uint64) { c.Back = v })
	return out
}
