package limiters_test

import (
	"testing"

	"ratelab/lab/limiters"
)

// BenchmarkTryAcquire measures one call of each one-message limiter, on a
// stream at about the limit rate so that both answers occur.
func BenchmarkTryAcquire(b *testing.B) {
	const limit, window = 1000, 1_000_000_000
	cases := []struct {
		name string
		make func() interface{ TryAcquire(uint64) bool }
	}{
		{"fixed", func() interface{ TryAcquire(uint64) bool } { return limiters.NewFixedWindow(limit, window) }},
		{"slidinglog", func() interface{ TryAcquire(uint64) bool } { return limiters.NewSlidingLog(limit, window) }},
		{"naive", func() interface{ TryAcquire(uint64) bool } { return limiters.NewNaiveBucket(limit, limit, 0) }},
		{"sliding", func() interface{ TryAcquire(uint64) bool } {
			return limiters.NewSlidingWindow(limiters.Reference.NewWindow(limit, window, 10), window, 10)
		}},
		{"tokenbucket", func() interface{ TryAcquire(uint64) bool } {
			return limiters.NewTokenBucket(limiters.Reference.NewBucket(limit, limit, 0), true, 0)
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			l := c.make()
			b.ReportAllocs()
			var now uint64
			for b.Loop() {
				l.TryAcquire(now)
				now += 900_000 // a little faster than 1,000 per second
			}
		})
	}
}
