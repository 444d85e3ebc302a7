package fairqueue

import (
	"math/rand"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	ref "ratelab/solutions/fairqueue"
)

// The benchmark: a quantum of 1,000, 1,000 sessions with four commands
// waiting each, then n pairs of a Push (a random session, a cost drawn
// from [1, quantum]) and a Pop, folded into a digest of what Pop returns.
const (
	benchQuantum  = 1000
	benchSessions = 1000
	benchTable    = 4096
)

func loop(newQ New, n int) uint64 {
	q := newQ(benchQuantum)
	for i := range benchSessions * 4 {
		q.Push(uint32(i%benchSessions), benchCosts[i%benchTable])
	}
	d := check.DigestStart
	for i := range n {
		j := i & (benchTable - 1)
		q.Push(benchWho[j], benchCosts[j])
		s, c, ok := q.Pop()
		d = check.Digest(d, uint64(s)<<40^c<<1^check.Bit(ok))
	}
	return d
}

var benchWho, benchCosts = func() ([]uint32, []uint64) {
	r := rand.New(rand.NewSource(3))
	who, costs := make([]uint32, benchTable), make([]uint64, benchTable)
	for i := range who {
		who[i], costs[i] = uint32(r.Intn(benchSessions)), 1+uint64(r.Intn(benchQuantum))
	}
	return who, costs
}()

// BudgetNs is the budget of one Push and one Pop.
const BudgetNs = 100

// refNew is the reference solution (see check.API.Ref).
func refNew(quantum uint64) Queue { return ref.New(quantum) }

// API is what the grading child serves for impl, with the reference
// (refNew) beside it in the benchmark (see harness.Limiter).
func API(impl New) harness.API { return harness.Limiter(impl, refNew, loop) }
