package tokenbucket

import (
	"fmt"
	"math/big"

	"ratelab/grader/check"
	"ratelab/grader/model"
)

// setup is New's arguments.
type setup struct{ Capacity, Rate, Start uint64 }

// op is one call, at its When.
type op struct {
	Available bool   // Available instead of TryAcquire
	N         uint64 // TryAcquire's n
	check.When
}

type script = check.Script[setup, op]

// unitsPerToken is the contract's fixed-point scale: 1 token = 10^9 units.
var unitsPerToken = big.NewInt(1_000_000_000)

func replay(newImpl New, s script) check.Trace {
	st := s.Setup
	t, b, ok := check.Begin(fmt.Sprintf("New(capacity=%s, ratePerSec=%s, nowNs=%s)", check.U(st.Capacity), check.U(st.Rate), check.U(st.Start)),
		func() Bucket { return newImpl(st.Capacity, st.Rate, st.Start) })
	t.Full = s.Full
	if ok {
		m := model.NewBucket(st.Capacity, st.Rate, st.Start)
		check.Replay(&t, st.Start, s.Ops, func(o op, now uint64) (string, string, string, *check.Panic) {
			if o.Available {
				got, p := check.Call(func() uint64 { return b.Available(now) })
				return fmt.Sprintf("Available(nowNs=%s)", check.U(now)), check.U(got), check.U(m.Available(now)), p
			}
			got, p := check.Call(func() bool { return b.TryAcquire(now, o.N) })
			return fmt.Sprintf("TryAcquire(nowNs=%s, n=%s)", check.U(now), check.U(o.N)), check.B(got), check.B(m.TryAcquire(now, o.N)), p
		})
	}
	return t
}

// interval is the time one token takes at rate, rounded up (at least 1 ns).
func interval(rate uint64) uint64 {
	if rate == 0 {
		return 1 << 40
	}
	return max(1, (1_000_000_000+rate-1)/rate)
}

// startsFull explains a failure on the very first call, at the time the
// bucket was made, whatever the check: it did not start full.
const startsFull = "This is the first call, at the time the bucket was made: a new bucket starts full, with capacity tokens."

func explain(s script, t check.Trace, why string) string {
	if len(t.Steps) == 1 && s.Ops[0].At(s.Setup.Start) == s.Setup.Start {
		return startsFull
	}
	return why
}
