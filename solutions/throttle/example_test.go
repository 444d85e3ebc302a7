package throttle_test

import (
	"fmt"

	"ratelab/solutions/throttle"
)

func ExampleGate_Write() {
	g, _ := throttle.New(throttle.Config{
		Breaker: throttle.BreakerConfig{TTLNs: 1000, DegradedWriteLimit: 1, AutoRecover: true},
		Rate:    throttle.RateLimit{MaxCalls: 2, WindowNs: 100},
		Congestion: throttle.CongestionConfig{
			WindowNs: 100, LowBelow: 1, HighAbove: 10, MinMaxCalls: 1, MaxMaxCalls: 10,
		},
	}, 0)
	fmt.Println(g.Write(7, 0), g.Write(7, 10), g.Write(7, 20)) // two per 100 ns
	fmt.Println(g.Write(7, 100))                               // the write at 0 has left the window
	g.SetWhitelisted(9, true)
	g.SetState(throttle.Degraded, 200)
	fmt.Println(g.Write(9, 200), g.Write(9, 201)) // the whitelist does not skip the degraded cap
	g.SetState(throttle.Paused, 300)
	fmt.Println(g.Write(9, 1299)) // paused: everyone
	fmt.Println(g.Write(9, 1300)) // recovered at RecoverAtNs itself
	// Output:
	// <nil> <nil> throttle: rate limit exceeded for this address
	// <nil>
	// <nil> throttle: degraded, and this period's writes are used up
	// throttle: paused by the operator
	// <nil>
}

func ExampleGate_AdjustCongestion() {
	g, _ := throttle.New(throttle.Config{
		Rate: throttle.RateLimit{MaxCalls: 100, WindowNs: 1000},
		Congestion: throttle.CongestionConfig{
			WindowNs: 1000, LowBelow: 2, HighAbove: 3,
			ReduceBps: 2500, IncreaseBps: 1000, MinMaxCalls: 10, MaxMaxCalls: 200,
		},
	}, 0)
	for addr := range uint64(4) {
		g.Write(addr, 0)
	}
	fmt.Println(g.AdjustCongestion(0), g.Status(0).MaxCalls)       // High: 100 - 25
	fmt.Println(g.AdjustCongestion(10), g.Status(10).MaxCalls)     // still High: no move
	fmt.Println(g.AdjustCongestion(1000), g.Status(1000).MaxCalls) // Low: 75 + 7 (rounded down)
	// Output:
	// 2 75
	// 2 75
	// 0 82
}

func ExampleGate_Status() {
	g, _ := throttle.New(throttle.Config{
		Breaker:    throttle.BreakerConfig{TTLNs: 500, DegradedWriteLimit: 3, AutoRecover: true},
		Rate:       throttle.RateLimit{MaxCalls: 5, WindowNs: 1000},
		Congestion: throttle.CongestionConfig{WindowNs: 1000, HighAbove: 100, MinMaxCalls: 1, MaxMaxCalls: 10},
	}, 0)
	g.SetState(throttle.Degraded, 100)
	g.Write(1, 120)
	s := g.Status(130)
	fmt.Println(s.State, s.RecoverAtNs, s.DegradedWrites, s.DegradedWriteLimit, s.MaxCalls, s.WindowNs, s.Level)
	s = g.Status(600) // past the recovery
	fmt.Println(s.State, s.RecoverAtNs, s.DegradedWrites)
	// Output:
	// 1 600 1 3 5 1000 1
	// 0 0 0
}
