package tokenbucket

import (
	"fmt"
	"math/big"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/model"
)

// Traps: each check's failure must contain the mistake it names (see
// check.Property.Trap). Where the mistake is a kind of call, the same
// script without those calls, answered the same way by the contract, must
// pass, so the failure is those calls' doing.

// backwardTrap: a call up to the failing one stepped back, and with every
// step back made a call at the latest time instead (the same thing, by the
// contract) the script passes.
func backwardTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := len(t.Steps) - 1
	if !steppedBack(s.Ops[:last+1]) {
		return false
	}
	alt := script{Setup: s.Setup, Ops: make([]op, len(s.Ops))}
	for i, o := range s.Ops {
		o.Back = 0
		if s.Ops[i].Back > 0 {
			o.Wait = 0
		}
		alt.Ops[i] = o
	}
	return !replay(alt).Bad
}

func steppedBack(ops []op) bool {
	for _, o := range ops {
		if o.Back > 0 {
			return true
		}
	}
	return false
}

// partialTrap: a TryAcquire up to the failing call asked for more than the
// bucket held, and with those requests made as Available calls instead
// (which take nothing either) the script passes.
func partialTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := len(t.Steps) - 1
	too := tooBig(s, last)
	if len(too) == 0 {
		return false
	}
	alt := script{Setup: s.Setup, Ops: append([]op(nil), s.Ops...)}
	for _, i := range too {
		if i < last {
			alt.Ops[i].Available, alt.Ops[i].N = true, 0
		}
	}
	return too[0] == last || !replay(alt).Bad
}

// tooBig lists the calls up to last that asked for more tokens than the
// bucket held.
func tooBig(s script, last int) []int {
	m := model.NewBucket(s.Setup.Capacity, s.Setup.Rate, s.Setup.Start)
	var out []int
	latest := s.Setup.Start
	for i, o := range s.Ops[:last+1] {
		now := o.At(latest)
		latest = max(latest, now)
		if o.Available {
			m.Available(now)
			continue
		}
		if o.N > m.Available(now) {
			out = append(out, i)
		}
		m.TryAcquire(now, o.N)
	}
	return out
}

// overflowTrap: up to the failing call, a value of the contract's
// arithmetic left 64 bits: capacity×10^9, n×10^9, elapsed×rate, or a time
// saturated at MaxUint64.
//
// A failure on the very first call is overflow's only if a small bucket
// made the same way passes that call: otherwise the bucket just did not
// start full, whatever its size.
func overflowTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := len(t.Steps) - 1
	if last == 0 {
		small := script{Setup: setup{Capacity: 1, Rate: s.Setup.Rate, Start: s.Setup.Start}, Ops: []op{{N: 1}}}
		if replay(small).Bad {
			return false
		}
	}
	limit := new(big.Int).Lsh(big.NewInt(1), 64)
	beyond := func(a, b uint64) bool {
		return new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)).Cmp(limit) >= 0
	}
	if beyond(s.Setup.Capacity, 1_000_000_000) {
		return true
	}
	latest := s.Setup.Start
	for _, o := range s.Ops[:last+1] {
		if o.Back == 0 && latest > ^uint64(0)-o.Wait {
			return true // the time saturated
		}
		now := o.At(latest)
		if now > latest && beyond(now-latest, s.Setup.Rate) || !o.Available && beyond(o.N, 1_000_000_000) {
			return true
		}
		latest = max(latest, now)
	}
	return false
}

// fractionalTrap: the failure comes after a call that earned part of a
// token (every refill here is one), not on the first call, whose failure
// is the bucket's start.
func fractionalTrap(s script, t check.Trace, _ func(script) check.Trace) bool {
	return len(t.Steps) >= 2
}

// explainFractional says, in the script's numbers, how the calls came less
// than a token apart and what they earned.
func explainFractional(s script, t check.Trace, why string) string {
	if len(t.Steps) <= 1 {
		return explain(s, t, why)
	}
	last := len(t.Steps) - 1
	var gaps []string
	earned := 0.0
	latest := s.Setup.Start
	for _, o := range s.Ops[1 : last+1] {
		now := o.At(latest)
		if d := now - latest; now > latest {
			e := float64(d) * float64(s.Setup.Rate) / 1e9
			earned += e
			if len(gaps) < 4 {
				gaps = append(gaps, fmt.Sprintf("%s ns (%.3g of a token)", check.U(d), e))
			}
		}
		latest = max(latest, now)
	}
	if len(gaps) == 0 {
		return why
	}
	more := ""
	if n := strings.Count(strings.Join(gaps, ","), "ns"); n < last {
		more = ", …"
	}
	tokens := fmt.Sprintf("%.3g tokens", earned)
	if tokens == "1 tokens" {
		tokens = "1 token"
	}
	return fmt.Sprintf("After the first call, the calls here came %s%s apart at %s tokens/s: %s earned by the last call, in parts smaller than one token. %s",
		strings.Join(gaps, ", "), more, check.U(s.Setup.Rate), tokens, why)
}
