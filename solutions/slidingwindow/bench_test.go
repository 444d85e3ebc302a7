package slidingwindow_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"ratelab/solutions/slidingwindow"
)

// Traffic for the benchmarks: a venue-style limit of 10,000 calls per second,
// and a client calling at twice that, so that about half the calls are
// refused once the first window is spent. The arrival times are computed
// before the timer starts, so that the benchmark measures the limiter and not
// the generator, and both limiters see the same times. x/time/rate gets the
// same rate, with the whole limit as its burst.
const (
	benchLimit    = 10_000
	benchWindowNs = 1_000_000_000
	meanGapNs     = 50_000 // twice the limit
	tableSize     = 4096   // a power of two, so i&tableMask picks an entry
	tableMask     = tableSize - 1
)

// arrivals returns tableSize arrival times starting at 0, with gaps drawn
// uniformly from [0, 2*meanGapNs], and the span of the table: the offset to
// add to every entry to replay it later.
func arrivals() (ns []uint64, span uint64) {
	r := rand.New(rand.NewPCG(1, 2))
	ns = make([]uint64, tableSize)
	var now uint64
	for i := range ns {
		now += r.Uint64N(2*meanGapNs + 1)
		ns[i] = now
	}
	return ns, now + r.Uint64N(2*meanGapNs+1)
}

// reportAccepted replays the traffic for 64 tables (about 13 s of traffic),
// untimed, and reports the fraction of calls accepted, to show the mix is
// realistic.
func reportAccepted(b *testing.B, try func(ns uint64) bool) {
	const reps = 64
	ns, span := arrivals()
	accepted := 0
	for rep := range uint64(reps) {
		for _, n := range ns {
			if try(n + rep*span) {
				accepted++
			}
		}
	}
	b.Cleanup(func() {
		// After the benchmark: b.Loop deletes metrics reported before it.
		b.ReportMetric(float64(accepted)/(reps*tableSize), "accepted/op")
	})
}

func BenchmarkTryAcquire(b *testing.B) {
	for _, buckets := range []int{10, 1000, 100_000} {
		b.Run(fmt.Sprintf("buckets=%d/impl=ratelab", buckets), func(b *testing.B) {
			check := slidingwindow.New(benchLimit, benchWindowNs, buckets)
			reportAccepted(b, check.TryAcquire)

			ns, span := arrivals()
			w := slidingwindow.New(benchLimit, benchWindowNs, buckets)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				w.TryAcquire(ns[i&tableMask])
				i++
				if i&tableMask == 0 { // replay the table later in time
					for j := range ns {
						ns[j] += span
					}
				}
			}
		})
		b.Run(fmt.Sprintf("buckets=%d/impl=xtimerate", buckets), func(b *testing.B) {
			base := time.Unix(0, 0)
			perSec := rate.Limit(benchLimit * 1e9 / benchWindowNs)
			check := rate.NewLimiter(perSec, benchLimit)
			check.AllowN(base, 0) // start the clock at 0
			reportAccepted(b, func(ns uint64) bool { return check.AllowN(base.Add(time.Duration(ns)), 1) })

			ns, span := arrivals()
			ts := make([]time.Time, len(ns))
			for j, n := range ns {
				ts[j] = base.Add(time.Duration(n))
			}
			lim := rate.NewLimiter(perSec, benchLimit)
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
}

func BenchmarkCount(b *testing.B) {
	ns, span := arrivals()
	w := slidingwindow.New(benchLimit, benchWindowNs, 1000)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if i&1 == 0 {
			w.TryAcquire(ns[i&tableMask])
		} else {
			w.Count(ns[i&tableMask])
		}
		i++
		if i&tableMask == 0 {
			for j := range ns {
				ns[j] += span
			}
		}
	}
}
