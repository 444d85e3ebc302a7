package hierarchy

import (
	"math/rand"

	"ratelab/grader/check"
	"ratelab/grader/harness"
	ref "ratelab/solutions/hierarchy"
)

// API is what the grading child serves for impl, with the reference ref
// beside it in the benchmark.
func API(impl, ref New) harness.API { return harness.Limiter(impl, ref, loop) }

// Remote returns New for the implementation r serves: every call it makes
// is a call in r's process.
func Remote(r check.Remote) New {
	return func(nowNs uint64) Tree { return remoteTree{check.NewObject(r, "New", nowNs)} }
}

type remoteTree struct{ check.Object }

func (x remoteTree) Add(parent int, capacity, ratePerSec uint64) (id int, err error) {
	x.Remote.Call(x.Obj, "Add", []any{parent, capacity, ratePerSec}, &id, &err)
	return id, err
}

func (x remoteTree) TryAcquire(node int, nowNs, n uint64) bool {
	return check.Get[bool](x.Object, "TryAcquire", node, nowNs, n)
}

func (x remoteTree) Available(node int, nowNs uint64) uint64 {
	return check.Get[uint64](x.Object, "Available", node, nowNs)
}

// refNew is the reference solution: the benchmark's decisions must be its.
func refNew(nowNs uint64) Tree { return ref.New(nowNs) }

// The benchmark's tree: one firm (1,000 tokens, 10^6/s), 10 accounts (200,
// 150,000/s) of 100 sessions each (10, 2,000/s). Calls come on average
// every 500 ns on random sessions: twice what the firm lets through, so
// about half are refused, by one level or another.
const (
	benchAccounts   = 10
	benchPerAccount = 100
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
