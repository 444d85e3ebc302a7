package breaker_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"ratelab/solutions/breaker"
)

// BenchmarkAllowDone makes an Allow and, when it is let through, reports
// it with Done, on precomputed traffic where a share of the calls fail:
// the breaker opens, probes and closes again and again.
func BenchmarkAllowDone(b *testing.B) {
	for _, failPct := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("fail=%d%%", failPct), func(b *testing.B) {
			br, _ := breaker.New(breaker.Config{FailureThreshold: 5, OpenNs: 10_000, HalfOpenProbes: 3}, 0)
			const size = 4096
			r := rand.New(rand.NewPCG(1, 2))
			gaps, fails := make([]uint64, size), make([]bool, size)
			for i := range size {
				gaps[i], fails[i] = r.Uint64N(200), r.IntN(100) < failPct
			}
			now, i := uint64(0), 0
			b.ReportAllocs()
			for b.Loop() {
				j := i & (size - 1)
				now += gaps[j]
				if t, ok := br.Allow(now); ok {
					br.Done(t, !fails[j], now)
				}
				i++
			}
		})
	}
}
