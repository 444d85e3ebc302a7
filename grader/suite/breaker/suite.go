package breaker

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	"ratelab/grader/report"
)

// points is the suite's total.
const points = 25

var api = check.API[New]{Remote: Remote, NotStarted: notStarted, Ref: reference, Loop: loop, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

func notStarted(newImpl New) bool {
	return check.Untouched(func() Breaker {
		b, _ := newImpl(Config{FailureThreshold: 1, OpenNs: 1, HalfOpenProbes: 1}, 0)
		return b
	}, func(b Breaker) { b.Allow(0) }, func(b Breaker) { b.Done(1, true, 0) }, func(b Breaker) { b.State(0) })
}

// Checks is the breaker's suite. Its exactness check judges New's config
// validation first, then the calls; Allow with its Done is timed against
// the limiters' budget.
var Checks = check.Parts[New, domain, setup, op]{
	Exercise: "breaker", Prose: prose, API: api, Runs: exactness, BudgetNs: check.LimiterBudgetNs,
	Iteration: iteration,
	Mistakes:  mistakes, Replay: replay, Traps: traps,
	Domains: check.ByName(consecutiveDomain, openTimeoutDomain, halfOpenDomain, generationDomain, backwardDomain, exactDomain), Property: domain.property,
}

// exactness is the exactness check's Runner: it judges New's validation
// first, by its own table (a failure there is the check's own, charged to
// no mistake), then the calls, whose failures the mistakes explain.
func exactness(impl New) map[string]check.Runner {
	return map[string]check.Runner{"exactness": func(why string) func(int64) check.Outcome {
		return func(seed int64) check.Outcome {
			if o := validation(impl); o.Status != report.Passed {
				return check.Own(o)
			}
			p := exactDomain.property(impl)
			p.Diagnose = check.Diagnoser(mistakes, replay)
			return p.Run(seed, why)
		}
	}}
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
