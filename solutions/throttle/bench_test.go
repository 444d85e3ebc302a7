package throttle_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"ratelab/solutions/throttle"
)

// BenchmarkWrite writes for addresses drawn at random among many, on
// precomputed traffic, each address offered more than its limit allows,
// with the keeper adjusting congestion every 256 writes.
func BenchmarkWrite(b *testing.B) {
	for _, addrs := range []int{10, 1000, 100_000} {
		b.Run(fmt.Sprintf("addresses=%d", addrs), func(b *testing.B) {
			g, _ := throttle.New(throttle.Config{
				Rate: throttle.RateLimit{MaxCalls: 5, WindowNs: 100_000},
				Congestion: throttle.CongestionConfig{
					WindowNs: 10_000, LowBelow: 50, HighAbove: 150,
					ReduceBps: 2000, IncreaseBps: 2500, MinMaxCalls: 2, MaxMaxCalls: 20,
				},
			}, 0)
			const size = 4096
			r := rand.New(rand.NewPCG(1, 2))
			ids, gaps := make([]uint64, size), make([]uint64, size)
			for i := range size {
				ids[i], gaps[i] = r.Uint64N(uint64(addrs)), r.Uint64N(100)
			}
			now, i := uint64(0), 0
			b.ReportAllocs()
			for b.Loop() {
				j := i & (size - 1)
				now += gaps[j]
				g.Write(ids[j], now)
				if j&255 == 0 {
					g.AdjustCongestion(now)
				}
				i++
			}
		})
	}
}

// BenchmarkWriteGraded is the grader's budget check on this package
// alone (grader/suite/throttle's loop, without the adapter that classifies
// the errors): 1,000 addresses, 10 writes per ms each (twice that offered,
// gaps uniform in [0, 100] ns), 50 whitelisted and 50 with an override of
// 20 per 500 µs, the keeper adjusting congestion every 256 writes.
func BenchmarkWriteGraded(b *testing.B) {
	g, _ := throttle.New(throttle.Config{
		Rate: throttle.RateLimit{MaxCalls: 10, WindowNs: 1_000_000},
		Congestion: throttle.CongestionConfig{
			WindowNs: 100_000, LowBelow: 900, HighAbove: 1_100,
			ReduceBps: 2_000, IncreaseBps: 2_500, MinMaxCalls: 4, MaxMaxCalls: 40,
		},
	}, 0)
	for a := range uint64(50) {
		g.SetWhitelisted(a, true)
		g.SetIssuerLimit(500+a, throttle.RateLimit{MaxCalls: 20, WindowNs: 500_000})
	}
	const size = 4096
	r := rand.New(rand.NewPCG(1, 2))
	ids, gaps := make([]uint64, size), make([]uint64, size)
	for i := range size {
		ids[i], gaps[i] = r.Uint64N(1000), r.Uint64N(101)
	}
	now, i := uint64(0), 0
	b.ReportAllocs()
	for b.Loop() {
		j := i & (size - 1)
		now += gaps[j]
		g.Write(ids[j], now)
		if j&255 == 0 {
			g.AdjustCongestion(now)
		}
		i++
	}
}
