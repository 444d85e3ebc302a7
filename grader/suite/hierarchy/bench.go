package hierarchy

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// loop is the benchmark: TryAcquire(random session, now, 1).
func loop(newT New, seed uint64) func(n int) uint64 {
	t := newT(0)
	firm, _ := t.Add(rootID, 1000, 1_000_000)
	var sessions []int
	for range benchAccounts {
		a, _ := t.Add(firm, 200, 150_000)
		for range benchPerAccount {
			s, _ := t.Add(a, 10, 2_000)
			sessions = append(sessions, s)
		}
	}
	traffic := check.Traffic(seed, 4096, 1000, func(gap, x uint64) benchCall {
		return benchCall{gap: gap, leaf: sessions[x%uint64(len(sessions))]}
	})
	now := uint64(0)
	return func(n int) uint64 {
		calls := traffic.Next()
		d := check.DigestStart
		for i := range n {
			c := calls[i&(len(calls)-1)]
			now += c.gap
			d = check.Digest(d, check.Bit(t.TryAcquire(c.leaf, now, 1)))
		}
		return d
	}
}

// The benchmark's tree: one firm (1,000 tokens, 10^6/s), 10 accounts (200,
// 150,000/s) of 100 sessions each (10, 2,000/s). Calls come on average
// every 500 ns (gaps uniform in [0, 1,000] ns) on random sessions, both
// drawn for each run from its seed: twice what the firm lets through, so
// about half are refused, by one level or another.
const (
	benchAccounts   = 10
	benchPerAccount = 100
)

type benchCall struct {
	gap  uint64
	leaf int
}

// BudgetNs is the budget of one TryAcquire on a session three levels
// down: 60 ns, not the limiters' 40, since it charges three buckets (the
// contract, §3: natural correct code written as a learner would runs
// 35-40 ns, so 40 was decided by noise).
const BudgetNs = 60

// API is what the grading child serves for impl, with the reference
// (reference_gen.go) beside it in the benchmark (see harness.Limiter).
func API(impl New) harness.API { return harness.Limiter(impl, reference, loop) }

// iteration words one iteration of loop for the stub's Grading section
// (see check.Budget), its figures the benchmark's own.
var iteration = check.Iteration{What: "TryAcquire, on a random session of a tree of one firm, " + check.Count(benchAccounts) + " accounts and " + check.Count(benchAccounts*benchPerAccount) + " sessions,", Per: "call"}
