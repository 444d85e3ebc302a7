package model

import (
	"math"
	"testing"
)

// action is a governor action type of a test's own, as the suites and
// the lab have theirs.
type action int

const (
	aHold action = iota
	aDouble
	aBackOff
	aRecover
	aProbe
)

func TestDecideMatchesTheContractsExamples(t *testing.T) {
	cfg := GovernorConfig{Floor: 10, Ceiling: 100, Low: 0.01, High: 0.05}
	tests := []struct {
		frac, current, lastBad float64
		want                   GovernorDecision[action]
	}{
		{0.31, 100, 0, GovernorDecision[action]{aBackOff, 69, 100}},
		{0.9, 20, 0, GovernorDecision[action]{aBackOff, 10, 20}},
		{0.05, 40, 7, GovernorDecision[action]{aHold, 40, 7}},
		{0.01, 60, 0, GovernorDecision[action]{aDouble, 100, 0}},
		{0, 60, 100, GovernorDecision[action]{aRecover, 75, 100}},
		{0, 75, 100, GovernorDecision[action]{aProbe, 77, 100}},
		{0, 30, 40, GovernorDecision[action]{aProbe, 31, 40}},
		{math.NaN(), 30, 40, GovernorDecision[action]{aHold, 30, 40}},
	}
	for _, tt := range tests {
		got := Decide[action](cfg, tt.frac, tt.current, tt.lastBad)
		if got.Action != tt.want.Action || math.Abs(got.Offer-tt.want.Offer) > 1e-9 || got.LastBad != tt.want.LastBad {
			t.Errorf("Decide(cfg, %v, %v, %v) = %v; want %v", tt.frac, tt.current, tt.lastBad, got, tt.want)
		}
	}
}

// TestGovernorWindows: Observe reads each window from the counters'
// deltas; a window without resolved attempts, or counters that went back
// (the new baseline), holds and starts the streak again; MemoryClearStreak
// clean windows in a row at or above LastBad clear the memory.
func TestGovernorWindows(t *testing.T) {
	m := NewGovernor[action](GovernorConfig{Floor: 10, Ceiling: 100, Start: 5, Low: 0.01, High: 0.05})
	if m.Offer != 10 {
		t.Fatalf("opening offer %v, want Start 5 clamped to the floor 10", m.Offer)
	}
	m.Offer, m.LastBad = 25, 20 // a memory, and an offer above it
	steps := []struct {
		f, r   uint64
		kind   WindowKind
		offer  float64
		last   float64
		streak int
	}{
		{0, 100, Clean, 26, 20, 1}, // 25 >= 20: evidence; probe +1
		{0, 200, Clean, 27, 20, 2},
		{0, 200, Empty, 27, 20, 0}, // nothing resolved
		{0, 300, Clean, 28, 20, 1},
		{1, 50, Reset, 28, 20, 0}, // counters went back: the new baseline
		{1, 150, Clean, 29, 20, 1},
		{6, 250, Band, 29, 20, 0}, // 5/100 failed: the dead band holds, no evidence
		{6, 350, Clean, 30, 20, 1},
		{6, 450, Clean, 31, 20, 2},
		{6, 550, Clean, 32, 0, 0}, // the third in a row clears the memory
	}
	for i, s := range steps {
		w := m.Observe(s.f, s.r)
		if w.Kind != s.kind || m.Offer != s.offer || m.LastBad != s.last || m.Streak != s.streak {
			t.Fatalf("window %d (%d, %d): %+v, offer %v, memory %v, streak %d; want kind %d, %v, %v, %d",
				i+1, s.f, s.r, w, m.Offer, m.LastBad, m.Streak, s.kind, s.offer, s.last, s.streak)
		}
		if w.Clear != (i == len(steps)-1) {
			t.Fatalf("window %d: clear %v", i+1, w.Clear)
		}
	}
}
