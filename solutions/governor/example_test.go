package governor_test

import (
	"fmt"

	"ratelab/solutions/governor"
)

func ExampleDecide() {
	cfg := governor.Config{Floor: 10, Ceiling: 200, Low: 0.01, High: 0.05}
	// 31% of the window's attempts failed at an offer of 100.
	d := governor.Decide(cfg, 0.31, 100, 0)
	fmt.Println(d.Reason)
	fmt.Println(d.Offer, d.LastBad)
	// Output:
	// frac 0.31 > high 0.05: back off x0.69 to 69
	// 69 100
}

func ExampleMemoryClearStep() {
	streak := 0
	for _, evidence := range []bool{true, true, false, true, true, true} {
		var clears bool
		streak, clears = governor.MemoryClearStep(streak, evidence)
		fmt.Println(streak, clears)
	}
	// Output:
	// 1 false
	// 2 false
	// 0 false
	// 1 false
	// 2 false
	// 0 true
}

func ExampleGovernor_Observe() {
	g := governor.New(governor.Config{Floor: 10, Ceiling: 200, Low: 0.01, High: 0.05})
	// The cumulative counters a drain loop reads on each tick.
	ticks := []struct{ failures, resolved uint64 }{
		{0, 100}, {0, 300}, {1, 700}, // clean: slow start
		{121, 1100},                           // 120 of 400 failed: back off
		{121, 1400}, {121, 1700}, {121, 2000}, // recover, then probe
	}
	for _, t := range ticks {
		fmt.Println(g.Observe(t.failures, t.resolved).Reason)
	}
	fmt.Println(g.Offer(), g.LastBad())
	// Output:
	// frac 0 <= low 0.01, no congestion memory: double to 20
	// frac 0 <= low 0.01, no congestion memory: double to 40
	// frac 0 <= low 0.01, no congestion memory: double to 80
	// frac 0.3 > high 0.05: back off x0.7 to 56
	// frac 0 <= low 0.01, below 75% of last bad 80: recover x1.5 to 60
	// frac 0 <= low 0.01, at or above 75% of last bad 80: probe +1.6 to 61.6
	// frac 0 <= low 0.01, at or above 75% of last bad 80: probe +1.6 to 63.2
	// 63.2 80
}
