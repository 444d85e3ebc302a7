package gcra

import (
	"fmt"
	"math"

	"ratelab/grader/check"
	"ratelab/grader/model"
)

// setup is New's arguments.
type setup struct{ Rate, Burst, Start uint64 }

// op is one TryAcquire call. Its time is Wait after the latest time of the
// script so far (saturating at MaxUint64), or, if Back is non-zero, Back
// before it (stopping at 0).
type op struct {
	check.When
}

type script = check.Script[setup, op]

// newCall is the call of New with s's arguments, as the learner reads it.
func newCall(s setup) string {
	return fmt.Sprintf("New(ratePerSec=%s, burst=%s, nowNs=%s)", check.U(s.Rate), check.U(s.Burst), check.U(s.Start))
}

func replay(newImpl New, s script) check.Trace {
	st := s.Setup
	t, g, ok := check.Begin(newCall(st), func() Limiter { return newImpl(st.Rate, st.Burst, st.Start) })
	t.Full = s.Full
	if ok {
		m := model.NewBucket(st.Burst, st.Rate, st.Start)
		check.Replay(&t, st.Start, s.Ops, func(_ op, now uint64) (string, string, string, *check.Panic) {
			got, p := check.Call(func() bool { return g.TryAcquire(now) })
			return fmt.Sprintf("TryAcquire(nowNs=%s)", check.U(now)), check.B(got), check.B(m.TryAcquire(now, 1)), p
		})
	}
	return t
}

const second = 1_000_000_000

// interval is one emission interval, 10^9/rate ns, rounded up.
func interval(rate uint64) uint64 { return (second + rate - 1) / max(rate, 1) }

// dividesSecond reports whether one interval is a whole number of ns.
func dividesSecond(rate uint64) bool { return rate > 0 && second%rate == 0 }

// inRange reports whether New's arguments are within the contract.
func inRange(s setup) bool {
	return s.Rate >= 1 && s.Rate <= second && s.Burst >= 1 && s.Burst <= 1_000_000
}

// startsFull explains a failure on the very first call, at the time the
// limiter was made, whatever the check (unless that time is next to
// MaxUint64, where the check's own explanation stands).
const startsFull = "This is the first call, at the time the GCRA was made: like a token bucket that starts full, a new GCRA grants burst calls at once (its TAT starts at nowNs, not one interval or the whole burst later)."

// noTimePassed explains a failure where every call came at the time the
// limiter was made, whatever the check: only the burst is in question.
const noTimePassed = "All these calls come at the time the GCRA was made, so no time has passed: it must grant exactly burst of them and refuse the rest. The burst tolerance is (burst−1) intervals: a TAT up to that far ahead of now still conforms."

func explain(s script, t check.Trace, why string) string {
	if math.MaxUint64-s.Setup.Start < 1_000_000 {
		return why // next to the end of time, the check's own words say more
	}
	latest := s.Setup.Start
	for _, o := range s.Ops[:len(t.Steps)] {
		if o.At(latest) != s.Setup.Start {
			return why
		}
	}
	if len(t.Steps) == 1 {
		return startsFull
	}
	return noTimePassed
}
