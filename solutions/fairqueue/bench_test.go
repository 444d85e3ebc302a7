package fairqueue_test

import (
	"math/rand/v2"
	"testing"

	"ratelab/solutions/fairqueue"
)

// BenchmarkPushPop measures one Push and one Pop with 1,000 sessions kept
// backlogged (four commands each), costs drawn from [1, quantum]. The
// commands are drawn before the timer starts.
func BenchmarkPushPop(b *testing.B) {
	const quantum, sessions, tableSize = 1000, 1000, 4096
	r := rand.New(rand.NewPCG(1, 2))
	who := make([]uint32, tableSize)
	cost := make([]uint64, tableSize)
	for i := range who {
		who[i], cost[i] = r.Uint32N(sessions), 1+r.Uint64N(quantum)
	}
	q := fairqueue.New(quantum)
	for s := range uint32(sessions) {
		for range 4 {
			q.Push(s, 1+r.Uint64N(quantum))
		}
	}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		q.Push(who[i&(tableSize-1)], cost[i&(tableSize-1)])
		q.Pop()
		i++
	}
}
