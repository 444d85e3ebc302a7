package gcra

import (
	"fmt"
	"math/bits"
	"strings"

	"ratelab/grader/check"
)

// forwardOnly is the backward-time check's explanation of a failure that
// comes before any step back: the script's own calls, not a step back, are
// what it shows.
const forwardOnly = "Time only moves forward up to this call, so no step back plays a part yet: a GCRA must decide every call as the token bucket New(burst, ratePerSec, nowNs) does with n = 1, burst calls at once, then one more every 10^9/ratePerSec ns."

// smallValues is the overflow check's explanation of a failure whose
// values all stay far from 64 bits.
const smallValues = "Nothing in this script comes near 64 bits (no time past 2^63, no idle time whose product with ratePerSec passes 2^64): a GCRA must decide every call as the token bucket New(burst, ratePerSec, nowNs) does with n = 1, burst calls at once, then one more every 10^9/ratePerSec ns."

// explainBackward says which calls stepped back, and what they count as,
// or, if none did before the failing call, that time only moved forward.
func explainBackward(s script, t check.Trace, why string) string {
	var backs []string
	latest := s.Setup.Start
	for i, o := range s.Ops[:len(t.Steps)] {
		now := o.At(latest)
		if now < latest && len(backs) < 3 {
			backs = append(backs, fmt.Sprintf("call %d at %s ns is %s ns before the latest time seen, so it counts as %s ns", i+1, check.U(now), check.U(latest-now), check.U(latest)))
		}
		latest = max(latest, now)
	}
	if len(backs) == 0 {
		return explain(s, t, forwardOnly)
	}
	return explain(s, t, "Here "+strings.Join(backs, "; ")+". "+why)
}

// explainOverflow names the values of the script that come near 64 bits,
// or, if none does, says so.
func explainOverflow(s script, t check.Trace, why string) string {
	var edges []string
	if s.Setup.Start >= 1<<63 {
		edges = append(edges, fmt.Sprintf("the GCRA is made at %s ns", check.U(s.Setup.Start)))
	}
	latest := s.Setup.Start
	late, long := false, false
	for i, o := range s.Ops[:len(t.Steps)] {
		now := o.At(latest)
		if now >= 1<<63 && latest < 1<<63 && !late {
			late = true
			edges = append(edges, fmt.Sprintf("call %d comes at %s ns", i+1, check.U(now)))
		}
		if now > latest && !long {
			if hi, _ := bits.Mul64(now-latest, s.Setup.Rate); hi > 0 {
				long = true
				before := "the latest time before it"
				if i == 0 {
					before = "New"
				}
				edges = append(edges, fmt.Sprintf("call %d comes %s ns after %s, an idle time whose product with ratePerSec=%s passes 2^64", i+1, check.U(now-latest), before, check.U(s.Setup.Rate)))
			}
		}
		latest = max(latest, now)
	}
	if len(edges) == 0 {
		return explain(s, t, smallValues)
	}
	return explain(s, t, "Here "+strings.Join(edges, ", and ")+". "+why)
}
