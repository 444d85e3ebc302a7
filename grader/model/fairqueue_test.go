package model

import (
	"fmt"
	"testing"
)

// TestFairQueueRules: a session joins the round's end when it has
// something waiting; the head's turn adds the quantum once and serves
// commands while they fit its deficit; one that does not fit ends the
// turn, the deficit kept; a session that empties leaves the round, its
// deficit back to 0 (LastLeft keeps what was left).
func TestFairQueueRules(t *testing.T) {
	m := NewFairQueue(10)
	if _, _, ok := m.Pop(); ok {
		t.Fatal("an empty queue served a command")
	}
	m.Push(1, 7)
	m.Push(1, 7)
	m.Push(2, 15)
	m.Push(3, 4)
	if m.N != 4 || m.Waiting(1) != 2 || m.Waiting(9) != 0 {
		t.Fatalf("N %d, waiting(1) %d, waiting(9) %d; want 4, 2, 0", m.N, m.Waiting(1), m.Waiting(9))
	}
	var served []string
	for {
		s, c, ok := m.Pop()
		if !ok {
			break
		}
		served = append(served, fmt.Sprintf("%d:%d", s, c))
		if s == 3 && m.LastLeft[3] != 6 {
			t.Errorf("session 3 emptied with %d left, want 6", m.LastLeft[3])
		}
	}
	// Turn 1: session 1 gets 10, serves 7, 3 left < 7: to the end.
	// Session 2 gets 10 < 15: to the end, 10 kept. Session 3 gets 10,
	// serves 4, empties. Session 1: 13, serves 7, empties (6 left).
	// Session 2: 20, serves 15, empties (5 left).
	if got, want := fmt.Sprint(served), "[1:7 3:4 1:7 2:15]"; got != want {
		t.Fatalf("served %s, want %s", got, want)
	}
	if m.N != 0 || len(m.Round) != 0 || len(m.Flows) != 0 || m.LastLeft[1] != 6 || m.LastLeft[2] != 5 {
		t.Fatalf("after: N %d, round %v, flows %d, left %v", m.N, m.Round, len(m.Flows), m.LastLeft)
	}
	m.Push(2, 12)
	if s, inTurn, ok := m.Head(); s != 2 || inTurn || !ok {
		t.Fatalf("head %d %v %v, want 2, not in turn", s, inTurn, ok)
	}
	// Back from deficit 0 (not the 5 it had left): 10 is not enough for
	// 12, 20 is, and 8 is left.
	if _, _, ok := m.Pop(); !ok || m.Flows[2] != nil || m.LastLeft[2] != 8 {
		t.Fatalf("session 2 back: served %v, flows %v, left %d; want served, none, 8", ok, m.Flows, m.LastLeft[2])
	}
}
