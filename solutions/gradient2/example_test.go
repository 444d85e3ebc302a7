package gradient2_test

import (
	"fmt"

	"ratelab/solutions/gradient2"
)

func ExampleDefaultConfig() {
	c := gradient2.DefaultConfig()
	fmt.Println(c.InitialLimit, c.MinLimit, c.MaxLimit, c.Smoothing, c.RTTTolerance, c.LongWindow, c.QueueSize == nil)
	// Output: 20 20 200 0.2 1.5 600 true
}

func ExampleLimit_Update() {
	l := gradient2.New(gradient2.DefaultConfig())
	// A steady 10 ms with the limit fully used: the limit creeps up by
	// the queue allowance, smoothed.
	for range 20 {
		l.Update(10_000_000, l.Limit())
	}
	fmt.Println("steady:", l.Limit())
	// Latency triples: the gradient falls to about 0.5 and the limit
	// shrinks by about a tenth per sample.
	for range 5 {
		l.Update(30_000_000, l.Limit())
	}
	fmt.Println("queueing:", l.Limit())
	// Few requests in flight: app-limited, the limit stays.
	fmt.Println("app-limited:", l.Update(10_000_000, 1))
	// Output:
	// steady: 36
	// queueing: 24
	// app-limited: 24
}
