package tokenbucket_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"ratelab/solutions/tokenbucket"
)

// Traffic for the benchmarks: a client asking for one token at twice the
// refill rate, so that about half the calls are refused once the burst is
// spent. The arrival times are computed before the timer starts, so that the
// benchmark measures the limiter and not the generator, and both limiters
// see the same times.
const (
	benchCapacity = 100
	benchRate     = 1_000_000 // tokens per second: one per µs
	tableSize     = 4096      // a power of two, so i&tableMask picks an entry
	tableMask     = tableSize - 1
)

// arrivals returns tableSize arrival times starting at 0, with gaps drawn
// uniformly from [0, 1000] ns (mean 500 ns, twice the refill rate), and the
// span of the table: the offset to add to every entry to replay it later.
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
		check := tokenbucket.New(benchCapacity, benchRate, 0)
		reportAccepted(b, func(ns uint64) bool { return check.TryAcquire(ns, 1) })

		ns, span := arrivals()
		tb := tokenbucket.New(benchCapacity, benchRate, 0)
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			tb.TryAcquire(ns[i&tableMask], 1)
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
		check := rate.NewLimiter(benchRate, benchCapacity)
		check.AllowN(base, 0) // start the clock at 0, as New does
		reportAccepted(b, func(ns uint64) bool { return check.AllowN(base.Add(time.Duration(ns)), 1) })

		ns, span := arrivals()
		ts := make([]time.Time, len(ns))
		for j, n := range ns {
			ts[j] = base.Add(time.Duration(n))
		}
		lim := rate.NewLimiter(benchRate, benchCapacity)
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
