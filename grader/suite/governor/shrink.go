package governor

import (
	"ratelab/grader/check"
)

// Shrinking floats: a candidate is simpler when it prints shorter, or as
// short and smaller (check.SimplerFloats). Every candidate is strictly
// simpler, so shrinking ends.

// shrinkSetup shrinks the config, keeping the judge.
func shrinkSetup(s setup) []setup {
	var out []setup
	for _, c := range shrinkConfig(s.Config) {
		n := s
		n.Config = c
		out = append(out, n)
	}
	return out
}

func shrinkConfig(c Config) []Config {
	var out []Config
	out = check.VaryFloats(out, c, check.SimplerFloats(c.Start, 0, c.Floor, c.Ceiling), func(c *Config, y float64) { c.Start = y })
	out = check.VaryFloats(out, c, check.SimplerFloats(c.Floor, 1, 10), func(c *Config, y float64) { c.Floor = y })
	out = check.VaryFloats(out, c, check.SimplerFloats(c.Ceiling, 100, 1000, 10), func(c *Config, y float64) { c.Ceiling = y })
	out = check.VaryFloats(out, c, check.SimplerFloats(c.Low, 0, 0.01), func(c *Config, y float64) { c.Low = y })
	out = check.VaryFloats(out, c, check.SimplerFloats(c.High, 0.05, 0.1, c.Low), func(c *Config, y float64) { c.High = y })
	return out
}

func shrinkOp(o op) []op {
	var out []op
	switch o.Kind {
	case opWindow, opReset:
		pairs := [][2]uint64{{0, 1}, {1, 1}, {0, 100}, {o.F / 10, o.R / 10}, {o.F / 2, o.R / 2}}
		for _, fv := range check.Smaller(o.F) {
			pairs = append(pairs, [2]uint64{fv, o.R})
		}
		for _, rv := range check.Smaller(o.R) {
			pairs = append(pairs, [2]uint64{o.F, rv})
		}
		for _, p := range pairs {
			if p[0]+p[1] < o.F+o.R {
				n := o
				n.F, n.R = p[0], p[1]
				out = append(out, n)
			}
		}
	case opDecide:
		out = check.VaryFloats(out, o, check.SimplerFloats(o.Frac, 0, 0.5, 1, 0.1, 0.01, 0.05), func(n *op, y float64) { n.Frac = y })
		out = check.VaryFloats(out, o, check.SimplerFloats(o.Current, 1, 10, 100, o.LastBad*0.75, o.LastBad), func(n *op, y float64) { n.Current = y })
		out = check.VaryFloats(out, o, check.SimplerFloats(o.LastBad, 0, 100, 10, o.Current), func(n *op, y float64) { n.LastBad = y })
	}
	return out
}
