package breaker

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// points is the suite's total.
const points = 25

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	newImpl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(newImpl).Runs(why) }
	return check.Suite{
		Exercise:   "breaker",
		NotStarted: func() bool { return notStarted(newImpl) },
		Checks: []check.Check{
			{
				ID: "breaker/consecutive", Title: "Opens on consecutive failures; a success starts the count again", Kind: report.Property, Pitfall: "consecutive", Points: 4,
				Hint: "Keep one count of failures in a row: a failure reported in Closed adds one, a success sets it to 0, and the breaker opens when the count reaches FailureThreshold. A total of failures, or a success that only takes one off, opens a breaker on a dependency that is fine.",
				Run:  prop(consecutiveDomain, "Only failures in a row open the breaker."),
			},
			{
				ID: "breaker/open-timeout", Title: "Stays Open for exactly OpenNs, however large", Kind: report.Property, Pitfall: "open-timeout", Points: 4,
				Hint: "Remember when the open period began (the breaker's clock at the failure that opened it) and compare every call's time with openedAt+OpenNs using >=: at that instant the breaker is HalfOpen. Check OpenNs > MaxUint64-openedAt first: then the period never ends, and the sum must not be taken.",
				Run:  prop(openTimeoutDomain, "Open becomes HalfOpen when now >= openedAt+OpenNs, seen by whichever call comes first; an open period that would end past MaxUint64 never ends."),
			},
			{
				ID: "breaker/half-open-probes", Title: "Half-open lets exactly HalfOpenProbes calls through, and their reports decide", Kind: report.Property, Pitfall: "half-open-probes", Points: 4,
				Hint: "At the start of a half-open period set two counts to 0: probes let through and successes reported. Allow is ok while probes < HalfOpenProbes; a success adds to successes and closes the breaker when they reach HalfOpenProbes; a failure opens it again at once, from now.",
				Run:  prop(halfOpenDomain, "In HalfOpen, Allow lets the first HalfOpenProbes calls of the period through and refuses the rest; HalfOpenProbes successes close the breaker and one failure opens it again, for a whole new OpenNs."),
			},
			{
				ID: "breaker/generation", Title: "Ignores late reports from an earlier generation, and tickets never issued", Kind: report.Property, Pitfall: "generation", Points: 4,
				Hint: "Number the generations: every change of state starts a new one. Make each ticket say which generation issued it (e.g. tickets numbered in order, and the first ticket of the generation remembered), and have Done ignore a ticket of another generation, or one you never issued (0, or beyond the last one).",
				Run:  prop(generationDomain, "A report whose ticket comes from an earlier generation (a slow call that started before the breaker changed state), or that Allow never issued, must change nothing."),
			},
			{
				ID: "breaker/backward-time", Title: "Ignores a clock that steps back", Kind: report.Property, Pitfall: "backward-time", Points: 3,
				Hint: "Keep one clock: now = max(nowNs, latest time seen) before anything else, and start an open period at that now. An earlier nowNs must not start an open period in the past, nor wrap now-openedAt.",
				Run:  prop(backwardDomain, "The clock stepped back in this script: an earlier time counts as the latest one."),
			},
			{
				ID: "breaker/exactness", Title: "Agrees with the contract on every call", Kind: report.Property, Pitfall: "exactness", Points: 4,
				Hint: "Replay the counterexample by hand with the contract: one clock; Closed counts failures in a row; Open for OpenNs; HalfOpen lets HalfOpenProbes calls through; every change of state a new generation; New refuses a field that is 0, naming it.",
				Run: func(seed int64) check.Outcome {
					if o := validation(newImpl); o.Status != report.Passed {
						return o
					}
					return exactDomain.property(newImpl).Run(seed, "The breaker must answer every call as the contract does.")
				},
			},
			{
				ID: "breaker/budget", Title: "Allow and Done within 40 ns, without allocating", Kind: report.Benchmark, Pitfall: "budget", Points: 2,
				Hint: "A few integers are enough: the state, the counts, when the open period began, and the range of tickets of this generation. No map of tickets in flight, no slice, no allocation.",
				Run:  func(int64) check.Outcome { return benchmark(r) },
			},
		},
	}
}

// notStarted reports whether newImpl is the untouched stub.
func notStarted(newImpl New) bool {
	b, p := check.Call(func() Breaker {
		b, _ := newImpl(Config{FailureThreshold: 1, OpenNs: 1, HalfOpenProbes: 1}, 0)
		return b
	})
	if p != nil || b == nil {
		return p.Stub()
	}
	_, p1 := check.Call(func() bool { _, ok := b.Allow(0); return ok })
	_, p2 := check.Call(func() bool { b.Done(1, true, 0); return true })
	_, p3 := check.Call(func() State { return b.State(0) })
	return p1.Stub() && p2.Stub() && p3.Stub()
}

// validationCases are New's configs with the field at fault ("" if none).
var validationCases = []struct {
	cfg   Config
	field string
}{
	{Config{FailureThreshold: 3, OpenNs: 1000, HalfOpenProbes: 2}, ""},
	{Config{FailureThreshold: 1, OpenNs: 1, HalfOpenProbes: 1}, ""},
	{Config{OpenNs: 1000, HalfOpenProbes: 2}, "FailureThreshold"},
	{Config{FailureThreshold: 3, HalfOpenProbes: 2}, "OpenNs"},
	{Config{FailureThreshold: 3, OpenNs: 1000}, "HalfOpenProbes"},
}

// names reports whether msg names field, by the words of its name in any
// case and punctuation.
func names(msg, field string) bool {
	low := strings.ToLower(msg)
	for _, w := range map[string][]string{
		"FailureThreshold": {"failure", "threshold"},
		"OpenNs":           {"openns", "open ns", "open_ns", "open duration", "open period"},
		"HalfOpenProbes":   {"probe"},
	}[field] {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// validation calls New on each case: a config with a 0 field must give an
// error naming it (and no breaker), a valid one no error.
func validation(newImpl New) check.Outcome {
	t := check.Trace{Setup: "// each step is a call of New on its own"}
	for _, c := range validationCases {
		type made struct {
			b   Breaker
			err error
		}
		mk, p := check.Call(func() made { b, err := newImpl(c.cfg, 0); return made{b, err} })
		want, got := "a breaker, nil", "a breaker, nil"
		if c.field != "" {
			want = "nil, an error naming " + c.field
		}
		switch {
		case mk.err != nil && c.field != "" && mk.b == nil && names(mk.err.Error(), c.field):
			got = want
		case mk.err != nil:
			got = fmt.Sprintf("%s, %s", map[bool]string{true: "nil", false: "a breaker"}[mk.b == nil], check.ErrText(mk.err))
		case mk.b == nil:
			got = "nil, nil"
		}
		if !t.Step(fmt.Sprintf("New(%s, nowNs=0)", configString(c.cfg)), got, want, p) {
			return check.Fail(t, "New must refuse a config with a field that is 0, with an error whose text names the field, so that whoever wrote the config knows what to fix; a valid config gives a breaker and no error.")
		}
	}
	return check.Pass()
}
