package gateway

import "ratelab/grader/check"

// shrinkConfig lists simpler configs: without the second class, with
// smaller budgets, without escalation times.
func shrinkConfig(cfg Config) []Config {
	var out []Config
	with := func(f func(c *Config)) {
		c := Config{Classes: map[string]Class{}, SilenceAfterNs: cfg.SilenceAfterNs, DisconnectAfterNs: cfg.DisconnectAfterNs}
		for n, k := range cfg.Classes {
			c.Classes[n] = k
		}
		if cfg.Classes == nil {
			c.Classes = nil
		}
		f(&c)
		out = append(out, c)
	}
	for _, n := range classNames(cfg) {
		if len(cfg.Classes) > 1 {
			with(func(c *Config) { delete(c.Classes, n) })
		}
		k := cfg.Classes[n]
		for _, v := range check.Simpler(k.Orders.Capacity) {
			with(func(c *Config) { k := k; k.Orders.Capacity = v; c.Classes[n] = k })
		}
		for _, v := range check.Simpler(k.Cancels.Capacity) {
			with(func(c *Config) { k := k; k.Cancels.Capacity = v; c.Classes[n] = k })
		}
	}
	for _, v := range check.Simpler(cfg.SilenceAfterNs) {
		with(func(c *Config) { c.SilenceAfterNs = v })
	}
	for _, v := range check.Simpler(cfg.DisconnectAfterNs) {
		with(func(c *Config) { c.DisconnectAfterNs = v })
	}
	return out
}

func shrinkSetup(s setup) []setup {
	var out []setup
	for _, c := range shrinkConfig(s.Cfg) {
		out = append(out, setup{Cfg: c, Start: s.Start})
	}
	for _, t := range check.Simpler(s.Start) {
		out = append(out, setup{Cfg: s.Cfg, Start: t})
	}
	return out
}

func shrinkOp(o op) []op {
	var out []op
	if o.Call == admitCall && o.Kind != NewOrder {
		c := o
		c.Kind = NewOrder
		out = append(out, c)
	}
	if o.Call != reloadCall {
		// Another session of the domain, if it has it (see Valid): the
		// calls of two sessions may then become one's.
		for _, id := range []uint64{1, 2} {
			if id < o.Session {
				c := o
				c.Session = id
				out = append(out, c)
			}
		}
	}
	out = check.Vary(out, o, check.Smaller(o.Wait/tick), func(c *op, v uint64) { c.Wait = v * tick })
	out = check.Vary(out, o, check.Simpler(o.Wait), func(c *op, v uint64) { c.Wait = v })
	out = check.Vary(out, o, check.Smaller(o.Back), func(c *op, v uint64) { c.Back = v })
	if o.Call == reloadCall {
		for _, c := range shrinkConfig(o.Cfg) {
			n := o
			n.Cfg = c
			out = append(out, n)
		}
	}
	return out
}
