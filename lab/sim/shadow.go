package sim

import (
	"math/bits"

	"ratelab/lab/limiters"
)

// unitsPerToken is the shadow's unit: a billionth of a token.
const unitsPerToken = 1_000_000_000

// shadow is an exact token bucket, in billionths of a token, that takes a
// token whenever the lane it follows accepted a message: it holds what
// that lane would hold had it refilled exactly. The difference is the
// credit the lane lost (to rounding, say), computed from that lane alone.
type shadow struct {
	units, max, rate, last uint64
}

// newShadow returns a full shadow of a bucket of capacity tokens refilled
// at rate tokens per second, at time 0.
func newShadow(capacity, rate uint64) *shadow {
	hi, max := bits.Mul64(capacity, unitsPerToken)
	if hi != 0 {
		max = ^uint64(0)
	}
	return &shadow{units: max, max: max, rate: rate}
}

// at refills the shadow up to nowNs (a time before the latest adds nothing).
func (s *shadow) at(nowNs uint64) {
	if nowNs <= s.last {
		return
	}
	// rate tokens/s for dt ns is rate·dt billionths of a token.
	hi, add := bits.Mul64(nowNs-s.last, s.rate)
	if hi != 0 || add > s.max-s.units {
		s.units = s.max
	} else {
		s.units += add
	}
	s.last = nowNs
}

// take follows an acceptance at nowNs: a token less, none below zero.
func (s *shadow) take(nowNs uint64) {
	s.at(nowNs)
	s.units -= min(s.units, unitsPerToken)
}

// lost is the whole tokens the shadow holds at nowNs beyond held, the
// whole tokens its lane says it holds: zero for a lane that refills
// exactly.
func (s *shadow) lost(nowNs, held uint64) limiters.Credit {
	s.at(nowNs)
	if whole := s.units / unitsPerToken; whole > held {
		return limiters.Credit{Tokens: whole - held}
	}
	return limiters.Credit{}
}
