package sim_test

import (
	"math"
	"testing"

	"ratelab/lab/limiters"
	"ratelab/lab/sim"
)

// BenchmarkStep measures the simulation deciding limiter calls: each
// operation is one Step of batch messages through all five lanes, as the
// browser does once per frame. It reports limiter calls per second of
// benchmark time (messages × lanes), which includes drawing the traffic
// and keeping the measures.
func BenchmarkStep(b *testing.B) {
	const batch = 4096
	for _, traffic := range []string{"steady", "bursty", "random", "edge", "naive-demo"} {
		b.Run(traffic, func(b *testing.B) {
			cfg := sim.Config{Limit: 1000, WindowNs: 1_000_000_000, Buckets: 10, Traffic: traffic, Seed: 1}
			if traffic == "naive-demo" {
				cfg.Refill = sim.Naive
			}
			s, err := sim.New(cfg, limiters.Reference)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var calls float64
			for b.Loop() {
				calls += float64(s.Step(batch, math.MaxUint64).Len() * sim.NumLanes)
			}
			b.ReportMetric(calls/b.Elapsed().Seconds(), "calls/s")
		})
	}
}
