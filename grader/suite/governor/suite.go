package governor

import (
	"fmt"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	gm "ratelab/grader/model"
)

// MemoryClearStreak is the contract's streak length.
const MemoryClearStreak = gm.MemoryClearStreak

// Action mirrors the exercise's Action; the values are the contract's.
type Action int

// The contract's actions, in its order.
const (
	Hold Action = iota
	Double
	BackOff
	Recover
	Probe
)

// Config is the exercise's Config, declared once, in its model
// (grader/model).
type Config = gm.GovernorConfig

// Decision mirrors the exercise's Decision.
type Decision struct {
	Action  Action
	Offer   float64
	LastBad float64
	Reason  string
}

// Governor is the stateful API: *governor.Governor, adapted.
type Governor interface {
	Observe(cumFailures, cumResolved uint64) Decision
	Offer() float64
	LastBad() float64
}

// Impl is an implementation of the exercise: its functions, adapted to the
// suite's mirror types field by field.
type Impl struct {
	Decide          func(cfg Config, frac, current, lastBad float64) Decision
	MemoryClearStep func(streak int, cleanAtOrAboveLastBad bool) (next int, clears bool)
	New             func(cfg Config) Governor
}

var api = check.API[Impl]{Remote: Remote, NotStarted: notStarted, Record: record}

// record serves the reference, recording (see check.API.Record).
func record() check.Recorder { return harness.Record(API(reference)) }

// notStarted reports whether every entry point is the untouched stub.
func notStarted(impl Impl) bool {
	cfg := Config{Floor: 1, Ceiling: 10, Low: 0.01, High: 0.05}
	return check.Stubbed(func() { impl.Decide(cfg, 0, 1, 0) }, func() { impl.MemoryClearStep(0, true) }) &&
		check.Untouched(func() Governor { return impl.New(cfg) }, func(g Governor) { g.Observe(0, 1) }, func(g Governor) { g.Offer() }, func(g Governor) { g.LastBad() })
}

// Checks is the governor's suite. Beside the properties, the pure
// MemoryClearStep is walked through a fixed run of clean and dirty windows
// and one scripted climb follows a back-off; a governor is not timed.
var Checks = check.Parts[Impl, domain, setup, op]{
	Exercise: "governor", Prose: prose, API: api,
	Mistakes: mistakes, Replay: replay,
	Domains: check.ByName(slowStartDomain, backOffDomain, deadBandDomain, memoryDomain, floorCeilingDomain, openingDomain, memoryClearDomain, windowingDomain, exactDomain), Property: domain.property,
	Fixed: map[string]func(Impl) check.Outcome{"memory-clear-step": memoryClearSteps},
	Runs: func(impl Impl) map[string]check.Runner {
		return map[string]check.Runner{"climb-after-back-off": check.Scripted(climbAfterBackOff(), func(s script) check.Trace { return replay(impl, s) })}
	},
}

func climbAfterBackOff() script {
	w := func(failed uint64) op { return op{Kind: opWindow, F: failed, R: 100} }
	return script{
		Setup: setup{Config: Config{Floor: 1, Ceiling: 1000, Start: 100, Low: 0.01, High: 0.05}},
		Ops: []op{
			w(50), // BackOff to 50, LastBad 100
			w(0),  // Recover to 75
			w(0),  // Probe to 77
			w(0),  // Probe to 79
			w(50), // BackOff to 39.5, LastBad 79
			w(0),  // Recover to 59.25
			w(0),  // Probe to 60.83
		},
	}
}

func memoryClearSteps(impl Impl) check.Outcome {
	t := check.Trace{Setup: fmt.Sprintf("MemoryClearStreak = %d; each call gets the streak the previous one should have returned", MemoryClearStreak)}
	streak := 0
	for _, evidence := range []bool{true, true, false, true, true, true, true, false} {
		type result struct {
			next   int
			clears bool
		}
		in := streak
		got, p := check.Call(func() result { n, c := impl.MemoryClearStep(in, evidence); return result{n, c} })
		next, clears := gm.MemoryClearStep(in, evidence)
		streak = next
		call := fmt.Sprintf("MemoryClearStep(streak=%d, cleanAtOrAboveLastBad=%t)", in, evidence)
		if !t.Step(call, fmt.Sprintf("%d, %t", got.next, got.clears), fmt.Sprintf("%d, %t", next, clears), p) {
			return check.Fail(t, "Evidence extends the streak; the 3rd in a row returns (0, true); a window without evidence returns (0, false).")
		}
	}
	return check.Pass()
}
