package breaker

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// loop is the benchmark: one Allow per iteration and, for a call let
// through benchLag iterations earlier, its Done, on traffic drawn for each
// run from its seed where about a third of the calls fail: the breaker
// opens, probes and closes again and again. The digest is of Allow's
// decisions and of the state the breaker is in at the end.
func loop(newB New, seed uint64) func(n int) uint64 {
	b := check.BenchNew(newB(Config{FailureThreshold: 3, OpenNs: 2_000, HalfOpenProbes: 2}, 0))
	var pending [benchLag + 1]struct {
		ticket uint64
		ok     bool
	}
	traffic := check.Traffic(seed, 4096, 200, func(gap, x uint64) benchCall {
		return benchCall{gap: gap, fails: x%3 == 0}
	})
	now, i := uint64(0), 0 // i counts the run's iterations, over all its calls
	return func(n int) uint64 {
		calls := traffic.Next()
		d := check.DigestStart
		for k := range n {
			c := calls[k&(len(calls)-1)]
			now += c.gap
			t, ok := b.Allow(now)
			d = check.Digest(d, check.Bit(ok))
			pending[i%len(pending)].ticket, pending[i%len(pending)].ok = t, ok
			if p := pending[(i+1)%len(pending)]; p.ok && i >= benchLag {
				b.Done(p.ticket, !c.fails, now)
			}
			i++
		}
		return check.Digest(d, uint64(b.State(now)))
	}
}

// benchLag is how many iterations a call takes before it reports: calls
// are in flight together, so some reports arrive after the breaker
// changed state and are stale.
const benchLag = 3

type benchCall struct {
	gap   uint64
	fails bool
}

// API is what the grading child serves for impl, with the reference
// (reference_gen.go) beside it in the benchmark (see harness.Limiter).
func API(impl New) harness.API { return harness.Limiter(impl, reference, loop) }

// iteration words one iteration of loop for the stub's Grading section
// (see check.Budget), its figures the benchmark's own.
var iteration = check.Iteration{What: "an Allow and, when it is ok, its Done, on traffic where the breaker keeps opening, probing and closing,", Per: "pair"}
