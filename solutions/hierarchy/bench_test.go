package hierarchy_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"ratelab/solutions/hierarchy"
)

// The benchmark's tree: one firm, 10 accounts, 1,000 sessions (100 per
// account). Calls come on average every 500 ns, each on a random session:
// twice what the firm lets through, so about half the calls are refused,
// some by the firm, some by an account or a session.
const (
	firmCap, firmRate       = 1000, 1_000_000
	accountCap, accountRate = 200, 150_000
	sessionCap, sessionRate = 10, 2_000
	accounts, perAccount    = 10, 100
	tableSize               = 4096 // a power of two, so i&tableMask picks an entry
	tableMask               = tableSize - 1
)

// traffic returns tableSize calls (a session index in [0, 1000) and an
// arrival time from 0, gaps uniform in [0, 1000] ns) and the table's span.
func traffic() (leaf []int, ns []uint64, span uint64) {
	r := rand.New(rand.NewPCG(1, 2))
	leaf, ns = make([]int, tableSize), make([]uint64, tableSize)
	var now uint64
	for i := range ns {
		now += r.Uint64N(1001)
		ns[i] = now
		leaf[i] = r.IntN(accounts * perAccount)
	}
	return leaf, ns, now + r.Uint64N(1001)
}

// newTree builds the benchmark's tree and returns the sessions' ids.
func newTree() (*hierarchy.Tree, []int) {
	t := hierarchy.New(0)
	firm, _ := t.Add(hierarchy.Root, firmCap, firmRate)
	var sessions []int
	for range accounts {
		a, _ := t.Add(firm, accountCap, accountRate)
		for range perAccount {
			s, _ := t.Add(a, sessionCap, sessionRate)
			sessions = append(sessions, s)
		}
	}
	return t, sessions
}

// xtree is the same tree made of golang.org/x/time/rate limiters, one per
// node, made all or nothing by reserving on every level and cancelling
// every reservation if one level cannot grant at once.
type xtree struct {
	firm     *rate.Limiter
	accounts []*rate.Limiter
	sessions []*rate.Limiter
}

func newXTree(base time.Time) *xtree {
	x := &xtree{firm: rate.NewLimiter(firmRate, firmCap)}
	x.firm.AllowN(base, 0) // start the clock at 0, as New does
	for range accounts {
		l := rate.NewLimiter(accountRate, accountCap)
		l.AllowN(base, 0)
		x.accounts = append(x.accounts, l)
	}
	for range accounts * perAccount {
		l := rate.NewLimiter(sessionRate, sessionCap)
		l.AllowN(base, 0)
		x.sessions = append(x.sessions, l)
	}
	return x
}

func (x *xtree) allow(t time.Time, session int) bool {
	path := [3]*rate.Limiter{x.sessions[session], x.accounts[session/perAccount], x.firm}
	var rs [3]*rate.Reservation
	for i, l := range path {
		r := l.ReserveN(t, 1)
		if !r.OK() || r.DelayFrom(t) > 0 {
			r.CancelAt(t)
			for _, prev := range rs[:i] {
				prev.CancelAt(t)
			}
			return false
		}
		rs[i] = r
	}
	return true
}

func reportAccepted(b *testing.B, try func(leaf int, ns uint64) bool) {
	leaf, ns, span := traffic()
	accepted := 0
	for rep := range uint64(16) {
		for i, n := range ns {
			if try(leaf[i], n+rep*span) {
				accepted++
			}
		}
	}
	b.Cleanup(func() { b.ReportMetric(float64(accepted)/(16*tableSize), "accepted/op") })
}

func BenchmarkTryAcquire(b *testing.B) {
	b.Run("impl=ratelab", func(b *testing.B) {
		check, ids := newTree()
		reportAccepted(b, func(leaf int, ns uint64) bool { return check.TryAcquire(ids[leaf], ns, 1) })

		leaf, ns, span := traffic()
		tree, ids := newTree()
		for i := range leaf {
			leaf[i] = ids[leaf[i]]
		}
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			tree.TryAcquire(leaf[i&tableMask], ns[i&tableMask], 1)
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
		check := newXTree(base)
		reportAccepted(b, func(leaf int, ns uint64) bool { return check.allow(base.Add(time.Duration(ns)), leaf) })

		leaf, ns, span := traffic()
		ts := make([]time.Time, len(ns))
		for j, n := range ns {
			ts[j] = base.Add(time.Duration(n))
		}
		x := newXTree(base)
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			x.allow(ts[i&tableMask], leaf[i&tableMask])
			i++
			if i&tableMask == 0 {
				for j := range ts {
					ts[j] = ts[j].Add(time.Duration(span))
				}
			}
		}
	})
}
