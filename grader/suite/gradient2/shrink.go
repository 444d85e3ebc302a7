package gradient2

import "ratelab/grader/check"

// Shrinking: a float candidate is simpler when it prints shorter, or as
// short and smaller (check.SimplerFloats), so shrinking ends.

func shrinkSetup(s setup) []setup {
	var out []setup
	if s.Queue != queueNil {
		n := s
		n.Queue = queueNil
		out = append(out, n)
		if s.Queue != queueZero {
			n.Queue = queueZero
			out = append(out, n)
		}
	}
	out = check.VaryFloats(out, s, check.SimplerFloats(s.Initial, 20, 100, 1000, s.Min, s.Max), func(s *setup, c float64) { s.Initial = c })
	out = check.VaryFloats(out, s, check.SimplerFloats(s.Min, 0, 1, 20), func(s *setup, c float64) { s.Min = c })
	out = check.VaryFloats(out, s, check.SimplerFloats(s.Max, 200, 1000, 10_000, s.Initial), func(s *setup, c float64) { s.Max = c })
	out = check.VaryFloats(out, s, check.SimplerFloats(s.Smoothing, 1, 0.5, 0.2), func(s *setup, c float64) { s.Smoothing = c })
	out = check.VaryFloats(out, s, check.SimplerFloats(s.Tol, 1, 2, 1.5), func(s *setup, c float64) { s.Tol = c })
	out = check.Vary(out, s, atLeastOne(check.Smaller(uint64(s.Window))), func(s *setup, w uint64) { s.Window = int(w) })
	return out
}

func shrinkOp(o op) []op {
	if o.Limit {
		return nil
	}
	var out []op
	out = check.Vary(out, o, atLeastOne(check.Smaller(uint64(o.Times))), func(n *op, t uint64) { n.Times = int(t) })
	// An RTT of at least 1 ns rounds to at least 1 ns.
	out = check.VaryFloats(out, o, check.SimplerFloats(float64(o.RTT)), func(n *op, c float64) { n.RTT = uint64(c) })
	out = check.VaryFloats(out, o, check.SimplerFloats(float64(o.Inflight), 0, 1, 10, 100, 1000), func(n *op, c float64) { n.Inflight = int(c) })
	return out
}

// atLeastOne keeps the values of vs that are 1 or more.
func atLeastOne(vs []uint64) []uint64 {
	var out []uint64
	for _, v := range vs {
		if v >= 1 {
			out = append(out, v)
		}
	}
	return out
}
