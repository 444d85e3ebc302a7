package fairqueue

import (
	"ratelab/grader/check"
	"ratelab/grader/harness"
)

// The benchmark: a quantum of 1,000, 1,000 sessions with four commands
// waiting each, then n pairs of a Push (a random session, a cost drawn
// from [1, quantum], both drawn for each run from its seed) and a Pop,
// folded into a digest of what Pop returns.
const (
	benchQuantum  = 1000
	benchSessions = 1000
	benchTable    = 4096
)

func loop(newQ New, seed uint64) func(n int) uint64 {
	q := newQ(benchQuantum)
	traffic := check.Traffic(seed, benchTable, 0, func(_, x uint64) benchPush {
		return benchPush{who: uint32(x % benchSessions), cost: 1 + x>>32%benchQuantum}
	})
	for i := range benchSessions * 4 {
		q.Push(uint32(i%benchSessions), traffic.Warm[i%benchTable].cost)
	}
	return func(n int) uint64 {
		push := traffic.Next()
		d := check.DigestStart
		for i := range n {
			p := push[i&(benchTable-1)]
			q.Push(p.who, p.cost)
			s, c, ok := q.Pop()
			d = check.Digest(d, uint64(s)<<40^c<<1^check.Bit(ok))
		}
		return d
	}
}

type benchPush struct {
	who  uint32
	cost uint64
}

// BudgetNs is the budget of one Push and one Pop.
const BudgetNs = 100

// API is what the grading child serves for impl, with the reference
// (reference_gen.go) beside it in the benchmark (see harness.Limiter).
func API(impl New) harness.API { return harness.Limiter(impl, reference, loop) }

// iteration words one iteration of loop for the stub's Grading section
// (see check.Budget), its figures the benchmark's own.
var iteration = check.Iteration{What: "a Push and a Pop, with " + check.Count(benchSessions) + " sessions waiting,", Per: "pair"}
