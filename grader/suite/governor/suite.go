package governor

import (
	"fmt"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// MemoryClearStreak is the contract's streak length.
const MemoryClearStreak = 3

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

// Config mirrors the exercise's Config.
type Config struct {
	Floor, Ceiling float64
	Start          float64
	Low, High      float64
}

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

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(impl).Runs(why) }
	return check.Suite{
		Exercise:   "governor",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "governor/slow-start", Title: "Doubles the offer after each clean window until the first congestion, up to the ceiling", Kind: report.Property, Pitfall: "slow-start", Points: 4,
				Hint: "Open at Start, or at the floor when Start is 0: the ceiling is where the climb stops, not where it starts. While there is no congestion memory, a clean window doubles the offer, capped at the ceiling.",
				Run:  prop(slowStartDomain, "Every window here is clean and nothing has failed yet: the offer opens at Start (Floor if Start is 0) and each window doubles it, up to the ceiling."),
			},
			{
				ID: "governor/back-off", Title: "Backs off in proportion to the failures and remembers where", Kind: report.Property, Pitfall: "back-off", Points: 4,
				Hint: "Multiply by 1-frac, clamped to [0.25, 0.9]: a marginal breach trims by 10%, a total failure keeps a quarter. The offer that failed, current, becomes LastBad.",
				Run:  prop(backOffDomain, "frac > High is a breach: Offer = current*clamp(1-frac, 0.25, 0.9) (above the floor here) and LastBad = current, whatever the memory was."),
			},
			{
				ID: "governor/dead-band", Title: "Holds in the dead band, and only there", Kind: report.Property, Pitfall: "dead-band", Points: 3,
				Hint: "Three regions, two boundaries: frac > High breaches, frac <= Low is clean, anything in between holds with nothing changed. Check your comparison at frac == High and at frac == Low.",
				Run:  prop(deadBandDomain, "Low < frac <= High is the dead band: Hold, with the offer and the memory unchanged; frac == Low is already clean."),
			},
			{
				ID: "governor/recover-then-probe", Title: "With a memory, climbs x1.5 to 75% of LastBad, then probes additively", Kind: report.Property, Pitfall: "congestion-memory", Points: 4,
				Hint: "Below 0.75*LastBad: min(1.5*current, 0.75*LastBad). At or above it: current + max(1, 0.02*LastBad). A clean window never changes LastBad, and never doubles while there is a memory.",
				Run:  prop(memoryDomain, "These windows are clean with a congestion memory: the climb is x1.5 only up to 75% of LastBad, then one additive step of max(1, 2% of LastBad) per window, so the offer does not march multiplicatively back into the wall."),
			},
			{
				ID: "governor/climb-after-back-off", Title: "After a back-off, Observe recovers to 75% of LastBad and then probes", Kind: report.Case, Pitfall: "congestion-memory", Points: 2,
				Hint: "Observe must hand Decide the memory it keeps: after a back-off, clean windows recover x1.5 to 75% of the offer that failed, then probe additively; a new breach moves the memory to the new failure point.",
				Run: func(int64) check.Outcome {
					return check.Case(climbAfterBackOff(), func(s script) check.Trace { return replay(impl, s, full, false) },
						"After a back-off from 100 at 50% failures the climb is 50 -> 75 (x1.5, capped at 75% of 100), then +2 per clean window; the next breach remembers its own offer.")
				},
			},
			{
				ID: "governor/memory-clear-step", Title: "MemoryClearStep counts a streak and resets it", Kind: report.Case, Pitfall: "memory-clear", Points: 2,
				Hint: "Evidence adds one to the streak; reaching MemoryClearStreak returns (0, true); a window without evidence returns (0, false), whatever the streak was.",
				Run:  func(int64) check.Outcome { return memoryClearSteps(impl) },
			},
			{
				ID: "governor/memory-clear", Title: "Clears the memory only after 3 clean windows in a row at or above LastBad", Kind: report.Property, Pitfall: "memory-clear", Points: 3,
				Hint: "Feed MemoryClearStep, on every window, whether it was clean, with a memory, at a committed offer (the one the window ran at, before this decision) at or above LastBad. Any other window, a hold or an empty one included, resets the streak.",
				Run:  prop(memoryClearDomain, "LastBad follows the breaches, and clears only on the 3rd consecutive clean window at or above it (judged at the offer the window ran at); any other window starts the count again. The want is computed from your own offers."),
			},
			{
				ID: "governor/floor-ceiling", Title: "Never backs off below the floor nor climbs past the ceiling", Kind: report.Property, Pitfall: "floor-ceiling", Points: 2,
				Hint: "Three moves can leave [Floor, Ceiling]: a back-off (max with Floor), a doubling and a probe (min with Ceiling). The x1.5 recovery is capped by 75% of LastBad, which is never above the ceiling.",
				Run:  prop(floorCeilingDomain, "Each of these moves would leave [Floor, Ceiling] if it were not clamped."),
			},
			{
				ID: "governor/opening-offer", Title: "Opens at Start clamped into [Floor, Ceiling]", Kind: report.Property, Pitfall: "floor-ceiling", Points: 1,
				Hint: "The opening offer is Start, or Floor when Start is 0, clamped into [Floor, Ceiling]; there is no memory yet.",
				Run:  prop(openingDomain, "A new governor offers Start (Floor if Start is 0) clamped into [Floor, Ceiling], and has no congestion memory."),
			},
			{
				ID: "governor/windowing", Title: "Reads each window from counter deltas; holds on empty windows and resets", Kind: report.Property, Pitfall: "windowing", Points: 3,
				Hint: "Keep the counters of the previous tick: the window is (cumFailures-prevF)/(cumResolved-prevR). No resolved attempts in the window, or a counter lower than before (a reset: keep the new values as the baseline), means Hold with nothing changed.",
				Run:  prop(windowingDomain, "Each window must be read from the deltas since the previous tick, never from the lifetime counters; a window without resolved attempts, or after a counter reset, holds with the offer and memory unchanged."),
			},
			{
				ID: "governor/exactness", Title: "Agrees with the model on every call", Kind: report.Property, Pitfall: "exactness", Points: 2,
				Hint: "Replay the counterexample by hand with the contract's rules: each Observe is one Decide on the window's deltas plus one MemoryClearStep, and Offer and LastBad return what the latest decision committed.",
				Run:  prop(exactDomain, "Every Decide, Observe, Offer and LastBad must agree with the contract's model (offers within a relative 1e-9)."),
			},
		},
	}
}

// notStarted reports whether every entry point is the untouched stub.
func notStarted(impl Impl) bool {
	cfg := Config{Floor: 1, Ceiling: 10, Low: 0.01, High: 0.05}
	_, p1 := check.Call(func() Decision { return impl.Decide(cfg, 0, 1, 0) })
	_, p2 := check.Call(func() int { n, _ := impl.MemoryClearStep(0, true); return n })
	if !p1.Stub() || !p2.Stub() {
		return false
	}
	g, p := check.Call(func() Governor { return impl.New(cfg) })
	if p != nil {
		return p.Stub()
	}
	_, p3 := check.Call(func() Decision { return g.Observe(0, 1) })
	_, p4 := check.Call(func() float64 { return g.Offer() })
	_, p5 := check.Call(func() float64 { return g.LastBad() })
	return p3.Stub() && p4.Stub() && p5.Stub()
}

func climbAfterBackOff() script {
	w := func(failed uint64) op { return op{Kind: opWindow, F: failed, R: 100} }
	return script{
		Setup: Config{Floor: 1, Ceiling: 1000, Start: 100, Low: 0.01, High: 0.05},
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
		next, clears := memoryClearStep(in, evidence)
		streak = next
		call := fmt.Sprintf("MemoryClearStep(streak=%d, cleanAtOrAboveLastBad=%t)", in, evidence)
		if !t.Step(call, fmt.Sprintf("%d, %t", got.next, got.clears), fmt.Sprintf("%d, %t", next, clears), p) {
			return check.Fail(t, "Evidence extends the streak; the 3rd in a row returns (0, true); a window without evidence returns (0, false).")
		}
	}
	return check.Pass()
}
