package model

import (
	"math"
	"slices"
	"testing"
)

// The tree follows the hierarchy contract, rule by rule: Add's problems,
// the depth limit, all-or-nothing takes along the path, Available as the
// least on the path, one clock for every node, and a time before the
// latest adding nothing.
func TestTreeFollowsTheContract(t *testing.T) {
	m := NewTree(0)
	if id, p := m.Add(0, 1, 1); id != -1 || p != "parent" {
		t.Errorf("Add under a node that does not exist = %d, %q; want -1, parent", id, p)
	}
	firm, _ := m.Add(TreeRoot, 10, 1000)    // a token every 1 ms
	account, _ := m.Add(firm, 4, 1000)      // under firm
	session, _ := m.Add(account, 100, 1000) // its own bucket is large: the path limits it
	if firm != 0 || account != 1 || session != 2 || m.Len() != 3 || m.Depth(session) != 3 || m.Parent(session) != account {
		t.Fatalf("ids %d %d %d, %d nodes, depth %d, parent %d; want 0 1 2, 3, 3, 1", firm, account, session, m.Len(), m.Depth(session), m.Parent(session))
	}
	if got := m.Path(session); !slices.Equal(got, []int{2, 1, 0}) {
		t.Errorf("Path(session) = %v, want [2 1 0]", got)
	}
	if got := m.Available(session, 0); got != 4 {
		t.Errorf("Available(session) = %d, want 4: the least on its path, the account's", got)
	}
	if m.TryAcquire(session, 0, 5) {
		t.Error("TryAcquire of 5 with the account holding 4 succeeded")
	}
	if got := m.Whole(firm); got != 10 {
		t.Errorf("the firm holds %d after a refused take, want 10: nothing is taken anywhere", got)
	}
	if !m.TryAcquire(session, 0, 4) || m.Whole(firm) != 6 || m.Whole(account) != 0 || m.Whole(session) != 96 {
		t.Errorf("after taking 4: firm %d, account %d, session %d; want 6, 0, 96", m.Whole(firm), m.Whole(account), m.Whole(session))
	}
	if room := m.Room(account); room.Int64() != 4_000_000_000 {
		t.Errorf("the emptied account misses %s units, want 4,000,000,000", room)
	}
	if got := m.Lacking(session, 1); !slices.Equal(got, []int{account}) {
		t.Errorf("Lacking(session, 1) = %v, want the account alone", got)
	}
	// One clock: 1.5 ms later every node has earned 1.5 tokens.
	if got := m.Available(account, 1_500_000); got != 1 || m.Whole(firm) != 7 || m.Latest() != 1_500_000 {
		t.Errorf("at 1.5 ms: account %d, firm %d, latest %d; want 1, 7, 1.5 ms", got, m.Whole(firm), m.Latest())
	}
	if units := m.Units(account); units.Int64() != 1_500_000_000 {
		t.Errorf("the account holds %s units, want 1,500,000,000", units)
	}
	// An earlier time adds nothing and moves no clock back.
	if m.TryAcquire(account, 0, 2) || m.Latest() != 1_500_000 {
		t.Errorf("TryAcquire at an earlier time took 2 tokens, or moved the clock to %d", m.Latest())
	}
	// Capped at capacity after any idle.
	if got := m.Available(firm, math.MaxUint64); got != 10 || m.Capacity(firm) != 10 {
		t.Errorf("after any idle the firm holds %d of %d, want 10 of 10", got, m.Capacity(firm))
	}
	if m.Valid(TreeRoot) || m.Available(7, 0) != 0 || m.TryAcquire(-5, 0, 0) {
		t.Error("Root or an unknown id is a node")
	}
}

// Add refuses a node deeper than TreeMaxDepth, counting the node itself.
func TestTreeDepthLimit(t *testing.T) {
	m := NewTree(0)
	parent := TreeRoot
	for depth := 1; depth <= TreeMaxDepth; depth++ {
		id, p := m.Add(parent, 1, 1)
		if p != "" || m.Depth(id) != depth {
			t.Fatalf("Add at depth %d = %d, %q", depth, id, p)
		}
		parent = id
	}
	if id, p := m.Add(parent, 1, 1); id != -1 || p != "depth" || m.Problem(parent) != "depth" {
		t.Errorf("Add at depth %d = %d, %q; want -1, depth", TreeMaxDepth+1, id, p)
	}
}
