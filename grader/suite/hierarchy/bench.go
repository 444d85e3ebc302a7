package hierarchy

import (
	"math/rand"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	ref "ratelab/solutions/hierarchy"
)

// loop is the benchmark: TryAcquire(random session, now, 1).
func loop(newT New, n int) uint64 {
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
	leaves := make([]int, len(benchLeaves))
	for i, l := range benchLeaves {
		leaves[i] = sessions[l]
	}
	mask := len(leaves) - 1
	i := 0
	return check.Loop(n, benchSteps, func(now uint64) bool {
		ok := t.TryAcquire(leaves[i&mask], now, 1)
		i++
		return ok
	})
}

// The benchmark's tree: one firm (1,000 tokens, 10^6/s), 10 accounts (200,
// 150,000/s) of 100 sessions each (10, 2,000/s). Calls come on average
// every 500 ns on random sessions: twice what the firm lets through, so
// about half are refused, by one level or another.
const (
	benchAccounts   = 10
	benchPerAccount = 100
)

var (
	benchSteps  = check.Steps(4096, 1000)
	benchLeaves = func() []int {
		r := rand.New(rand.NewSource(2))
		l := make([]int, 4096)
		for i := range l {
			l[i] = r.Intn(benchAccounts * benchPerAccount)
		}
		return l
	}()
)

// refNew is the reference solution (see check.API.Ref).
func refNew(nowNs uint64) Tree { return ref.New(nowNs) }

// API is what the grading child serves for impl, with the reference
// (refNew) beside it in the benchmark (see harness.Limiter).
func API(impl New) harness.API { return harness.Limiter(impl, refNew, loop) }
