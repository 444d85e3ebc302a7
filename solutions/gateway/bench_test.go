package gateway_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"ratelab/solutions/gateway"
)

// BenchmarkAdmit admits messages of sessions drawn at random among many
// open ones, about half of them refused, on precomputed traffic.
func BenchmarkAdmit(b *testing.B) {
	for _, sessions := range []int{10, 1000, 100_000} {
		b.Run(fmt.Sprintf("sessions=%d", sessions), func(b *testing.B) {
			g, _ := gateway.New(gateway.Config{
				Classes:        map[string]gateway.Class{"regular": {Orders: gateway.Budget{Capacity: 10, RatePerSec: 10_000}, Cancels: gateway.Budget{Capacity: 20, RatePerSec: 20_000}}},
				SilenceAfterNs: 100_000,
			}, 0)
			for s := range uint64(sessions) {
				g.Open(s, "regular", 0)
			}
			const size = 4096
			r := rand.New(rand.NewPCG(1, 2))
			ids, kinds, gaps := make([]uint64, size), make([]gateway.Kind, size), make([]uint64, size)
			for i := range size {
				ids[i], kinds[i], gaps[i] = r.Uint64N(uint64(sessions)), gateway.Kind(r.IntN(4)), r.Uint64N(100_000/uint64(sessions)+1)
			}
			now, i := uint64(0), 0
			b.ReportAllocs()
			for b.Loop() {
				j := i & (size - 1)
				now += gaps[j]
				g.Admit(ids[j], kinds[j], now)
				i++
			}
		})
	}
}
