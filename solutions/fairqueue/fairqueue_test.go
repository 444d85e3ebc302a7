package fairqueue_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"ratelab/solutions/fairqueue"
)

// step is Push(session, cost) (pop false) or Pop() wanting session, cost
// (ok false when want is "empty").
type step struct {
	pop     bool
	session uint32
	cost    uint64
	empty   bool
}

func push(s uint32, c uint64) step { return step{session: s, cost: c} }
func pop(s uint32, c uint64) step  { return step{pop: true, session: s, cost: c} }

var empty = step{pop: true, empty: true}

func TestQueue(t *testing.T) {
	tests := []struct {
		name    string
		quantum uint64
		steps   []step
	}{
		{"empty", 5, []step{empty, push(1, 1), pop(1, 1), empty}},
		{"served while the deficit covers", 10, []step{
			push(1, 4), push(1, 4), push(1, 4), push(2, 10),
			pop(1, 4), pop(1, 4), pop(2, 10), pop(1, 4),
		}},
		{"an emptied session keeps no credit", 10, []step{
			push(1, 1), pop(1, 1), // 9 left, then forgotten
			push(1, 10), push(1, 10), push(2, 10), push(2, 10),
			pop(1, 10), pop(2, 10), pop(1, 10), pop(2, 10),
		}},
		{"a large command waits its turns", 10, []step{
			push(1, 35), push(2, 10), push(2, 10), push(2, 10), push(2, 10),
			pop(2, 10), pop(2, 10), pop(2, 10), pop(1, 35), pop(2, 10), empty,
		}},
		{"newcomers and finished turns go to the end of the round", 10, []step{
			push(1, 10), push(1, 10), push(2, 10),
			pop(1, 10), push(3, 10), pop(2, 10), pop(3, 10), pop(1, 10), // 3 joined before 1 went back
		}},
		{"a finished turn goes to the end, keeping its deficit", 10, []step{
			push(1, 6), push(1, 6), push(2, 10), push(2, 10),
			pop(1, 6), pop(2, 10), pop(1, 6), pop(2, 10),
		}},
		{"the largest quantum and cost", 1 << 32, []step{
			push(0, 64<<32), push(^uint32(0), 1), pop(^uint32(0), 1), pop(0, 64<<32),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := fairqueue.New(tt.quantum)
			waiting := 0
			for i, s := range tt.steps {
				if !s.pop {
					q.Push(s.session, s.cost)
					waiting++
				} else {
					gs, gc, ok := q.Pop()
					if s.empty {
						if ok || gs != 0 || gc != 0 {
							t.Fatalf("step %d: Pop() = %d, %d, %t; want 0, 0, false", i, gs, gc, ok)
						}
					} else {
						if !ok || gs != s.session || gc != s.cost {
							t.Fatalf("step %d: Pop() = %d, %d, %t; want %d, %d, true", i, gs, gc, ok, s.session, s.cost)
						}
						waiting--
					}
				}
				if got := q.Len(); got != waiting {
					t.Fatalf("step %d: Len() = %d, want %d", i, got, waiting)
				}
			}
		})
	}
}

func TestNewPanicsNamingQuantum(t *testing.T) {
	for _, quantum := range []uint64{0, 1<<32 + 1} {
		t.Run(fmt.Sprint(quantum), func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !contains(fmt.Sprint(r), "quantum") {
					t.Errorf("New(%d) panicked with %v, want a message naming quantum", quantum, r)
				}
			}()
			fairqueue.New(quantum)
		})
	}
}

func contains(s, sub string) bool {
	return len(s) >= len(sub) && (s[:len(sub)] == sub || contains(s[1:], sub))
}

// TestFairnessBound checks Shreedhar and Varghese's bound on random
// traffic: while two sessions stay backlogged, the costs served to them
// differ by less than 2×quantum + the largest cost.
func TestFairnessBound(t *testing.T) {
	const quantum = 100
	r := rand.New(rand.NewPCG(3, 4))
	q := fairqueue.New(quantum)
	served := map[uint32]uint64{}
	for s := range uint32(5) {
		for range 200 {
			q.Push(s, 1+r.Uint64N(3*quantum))
		}
	}
	for range 300 { // all five stay backlogged: 1000 commands, 300 served
		s, c, _ := q.Pop()
		served[s] += c
	}
	for a := range uint32(5) {
		for b := range uint32(5) {
			if d := served[a] - served[b]; served[a] > served[b] && d >= 2*quantum+3*quantum {
				t.Errorf("sessions %d and %d were served %d and %d", a, b, served[a], served[b])
			}
		}
	}
}

func TestNoAllocs(t *testing.T) {
	q := fairqueue.New(100)
	for s := range uint32(1000) {
		q.Push(s, 50)
	}
	i := uint32(0)
	allocs := testing.AllocsPerRun(10000, func() {
		i++
		q.Push(i%1000, uint64(1+i%100))
		q.Pop()
	})
	if allocs != 0 {
		t.Errorf("Push+Pop allocates %.1f times, want 0", allocs)
	}
}
