package throttle

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// loop is the benchmark: Write for addresses drawn among 1,000, each
// offered about twice what the global limit allows, so that many writes
// are refused; 50 addresses whitelisted and 50 with an override; the
// keeper adjusts congestion every 256 writes, so the global limit moves.
// The writes are drawn for each run from its seed.
func loop(impl Impl, seed uint64) func(n int) uint64 {
	g := check.BenchNew(impl.New(Config{
		Rate: RateLimit{MaxCalls: 10, WindowNs: 1_000_000},
		Congestion: CongestionConfig{
			WindowNs: 100_000, LowBelow: 900, HighAbove: 1_100,
			ReduceBps: 2_000, IncreaseBps: 2_500, MinMaxCalls: 4, MaxMaxCalls: 40,
		},
	}, 0))
	for a := range uint64(50) {
		g.SetWhitelisted(a, true)
		g.SetIssuerLimit(500+a, RateLimit{MaxCalls: 20, WindowNs: 500_000})
	}
	traffic := check.Traffic(seed, 4096, 100, func(gap, x uint64) benchWrite {
		return benchWrite{addr: x % benchAddrs, gap: gap}
	})
	now := uint64(0)
	return func(n int) uint64 {
		writes := traffic.Next()
		d := check.DigestStart
		for i := range n {
			j := i & (len(writes) - 1)
			m := writes[j]
			now += m.gap
			d = check.Digest(d, uint64(g.Write(m.addr, now).Refusal))
			if j&255 == 0 {
				d = check.Digest(d, uint64(g.AdjustCongestion(now)))
			}
		}
		return d
	}
}

// benchAddrs is how many addresses write in the benchmark.
const benchAddrs = 1000

// benchWrite is one write of the benchmark's traffic: tables of 4096 a
// run (see check.Tables), gaps uniform in [0, 100] ns (20 million writes a
// second, 20,000 per address, twice what 10 per ms allows).
type benchWrite struct{ addr, gap uint64 }

// budgetNs is the budget of one Write.
const budgetNs = 100

// API is what the grading child serves for impl, with the reference
// (reference_gen.go) beside it in the benchmark (see harness.Benched).
func API(impl Impl) harness.API {
	return harness.Benched(map[string]any{"New": impl.New}, impl, reference, loop)
}

// iteration words one iteration of loop for the stub's Grading section
// (see check.Budget), its figures the benchmark's own.
var iteration = check.Iteration{What: "Write, among " + check.Count(benchAddrs) + " addresses,", Per: "call"}
