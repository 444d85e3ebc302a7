package gcra_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"ratelab/solutions/gcra"
)

// Traffic for the benchmarks: a client calling at twice the rate, so that
// about half the calls are refused once the burst is spent. The arrival
// times are computed before the timer starts, so that the benchmark measures
// the limiter and not the generator, and both limiters see the same times.
const (
	benchRate  = 1_000_000 // calls per second: one per µs
	benchBurst = 100
	tableSize  = 4096 // a power of two, so i&tableMask picks an entry
	tableMask  = tableSize - 1
)

// arrivals returns tableSize arrival times starting at 0, with gaps drawn
// uniformly from [0, 1000] ns (mean 500 ns, twice the rate), and the span of
// the table: the offset to add to every entry to replay it later.
func arrivals() (ns []uint64, span uint64) {
	r := rand.New(rand.NewPCG(1, 2))
	ns = make([]uint64, tableSize)
	var now uint64
	for i := range ns {
		now += r.Uint64N(1001)
		ns[i] = now
	}
	return ns, now + r.Uint64N(1001)
}

// reportAccepted replays the traffic 16 times through try, untimed, and
// reports the fraction of calls accepted, to show the mix is realistic.
func reportAccepted(b *testing.B, try func(ns uint64) bool) {
	ns, span := arrivals()
	accepted := 0
	for rep := range uint64(16) {
		for _, n := range ns {
			if try(n + rep*span) {
				accepted++
			}
		}
	}
	b.Cleanup(func() {
		// After the benchmark: b.Loop deletes metrics reported before it.
		b.ReportMetric(float64(accepted)/(16*tableSize), "accepted/op")
	})
}

func BenchmarkTryAcquire(b *testing.B) {
	b.Run("impl=ratelab", func(b *testing.B) {
		check := gcra.New(benchRate, benchBurst, 0)
		reportAccepted(b, check.TryAcquire)

		ns, span := arrivals()
		g := gcra.New(benchRate, benchBurst, 0)
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			g.TryAcquire(ns[i&tableMask])
			i++
			if i&tableMask == 0 { // replay the table later in time
				for j := range ns {
					ns[j] += span
				}
			}
		}
	})
	b.Run("impl=xtimerate", func(b *testing.B) {
		base := time.Unix(0, 0)
		check := rate.NewLimiter(benchRate, benchBurst)
		check.AllowN(base, 0) // start the clock at 0, as New does
		reportAccepted(b, func(ns uint64) bool { return check.AllowN(base.Add(time.Duration(ns)), 1) })

		ns, span := arrivals()
		ts := make([]time.Time, len(ns))
		for j, n := range ns {
			ts[j] = base.Add(time.Duration(n))
		}
		lim := rate.NewLimiter(benchRate, benchBurst)
		lim.AllowN(base, 0)
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			lim.AllowN(ts[i&tableMask], 1)
			i++
			if i&tableMask == 0 {
				for j := range ts {
					ts[j] = ts[j].Add(time.Duration(span))
				}
			}
		}
	})
}
