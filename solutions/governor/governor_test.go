package governor_test

import (
	"math"
	"strings"
	"testing"

	"ratelab/solutions/governor"
)

// cfg is the configuration of most tests: offers between 10 and 100, clean
// at or below 1% failures, breach above 5%.
var cfg = governor.Config{Floor: 10, Ceiling: 100, Low: 0.01, High: 0.05}

// near reports whether a and b agree to a relative 1e-9, as the grader
// compares offers.
func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b))
}

func sameDecision(got, want governor.Decision) bool {
	return got.Action == want.Action && near(got.Offer, want.Offer) && near(got.LastBad, want.LastBad)
}

var actionNames = map[governor.Action]string{
	governor.Hold: "Hold", governor.Double: "Double", governor.BackOff: "BackOff",
	governor.Recover: "Recover", governor.Probe: "Probe",
}

func TestDecide(t *testing.T) {
	type want struct {
		action  governor.Action
		offer   float64
		lastBad float64
	}
	tests := []struct {
		name                   string
		cfg                    governor.Config
		frac, current, lastBad float64
		want                   want
	}{
		// Breach: severity-proportional, clamped to [0.25, 0.9], floored.
		{"marginal breach trims x0.9", cfg, 0.06, 50, 0, want{governor.BackOff, 45, 50}},
		{"breach x(1-frac)", cfg, 0.31, 100, 0, want{governor.BackOff, 69, 100}},
		{"total failure collapses x0.25", cfg, 1, 80, 0, want{governor.BackOff, 20, 80}},
		{"more failures than attempts still x0.25", cfg, 1.5, 80, 0, want{governor.BackOff, 20, 80}},
		{"back-off stops at the floor", cfg, 0.9, 20, 0, want{governor.BackOff, 10, 20}},
		{"a breach replaces the memory", cfg, 0.5, 60, 100, want{governor.BackOff, 30, 60}},
		// Dead band: nothing moves.
		{"frac == High holds", cfg, 0.05, 40, 0, want{governor.Hold, 40, 0}},
		{"dead band keeps the memory", cfg, 0.03, 40, 100, want{governor.Hold, 40, 100}},
		// Slow start.
		{"frac == Low is clean", cfg, 0.01, 40, 0, want{governor.Double, 80, 0}},
		{"clean, unexplored: double", cfg, 0, 10, 0, want{governor.Double, 20, 0}},
		{"doubling stops at the ceiling", cfg, 0, 60, 0, want{governor.Double, 100, 0}},
		{"at the ceiling still a Double", cfg, 0, 100, 0, want{governor.Double, 100, 0}},
		// Congestion memory: x1.5 up to 75% of LastBad, then additive.
		{"recover x1.5", cfg, 0, 20, 100, want{governor.Recover, 30, 100}},
		{"recover capped at 75% of LastBad", cfg, 0, 60, 100, want{governor.Recover, 75, 100}},
		{"probe from exactly 75%", cfg, 0, 75, 100, want{governor.Probe, 77, 100}},
		{"probe at least 1", cfg, 0, 30, 40, want{governor.Probe, 31, 40}},
		{"probe past LastBad", cfg, 0, 90, 60, want{governor.Probe, 91.2, 60}},
		{"probe stops at the ceiling", cfg, 0, 99, 100, want{governor.Probe, 100, 100}},
		// Low == High: no dead band.
		{"no dead band: above is a breach", governor.Config{Floor: 1, Ceiling: 10, Low: 0.1, High: 0.1}, 0.11, 8, 0, want{governor.BackOff, 7.12, 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := governor.Decide(tt.cfg, tt.frac, tt.current, tt.lastBad)
			w := governor.Decision{Action: tt.want.action, Offer: tt.want.offer, LastBad: tt.want.lastBad}
			if !sameDecision(got, w) {
				t.Errorf("Decide(cfg, %v, %v, %v) = %s %v lastBad %v; want %s %v lastBad %v",
					tt.frac, tt.current, tt.lastBad, actionNames[got.Action], got.Offer, got.LastBad,
					actionNames[w.Action], w.Offer, w.LastBad)
			}
			if got.Reason == "" || strings.Contains(got.Reason, "\n") {
				t.Errorf("Decide(cfg, %v, %v, %v).Reason = %q; want one non-empty line", tt.frac, tt.current, tt.lastBad, got.Reason)
			}
		})
	}
}

func TestDecideReason(t *testing.T) {
	tests := []struct {
		frac, current, lastBad float64
		want                   string
	}{
		{0.31, 100, 0, "frac 0.31 > high 0.05: back off x0.69 to 69"},
		{0.9, 20, 0, "frac 0.9 > high 0.05: back off x0.25 to 10 (floor)"},
		{0.03, 40, 0, "frac 0.03 in dead band (0.01, 0.05]: hold at 40"},
		{0, 60, 0, "frac 0 <= low 0.01, no congestion memory: double to 100 (ceiling)"},
		{0, 20, 100, "frac 0 <= low 0.01, below 75% of last bad 100: recover x1.5 to 30"},
		{0, 75, 100, "frac 0 <= low 0.01, at or above 75% of last bad 100: probe +2 to 77"},
	}
	for _, tt := range tests {
		if got := governor.Decide(cfg, tt.frac, tt.current, tt.lastBad).Reason; got != tt.want {
			t.Errorf("Decide(cfg, %v, %v, %v).Reason = %q; want %q", tt.frac, tt.current, tt.lastBad, got, tt.want)
		}
	}
}

func TestMemoryClearStep(t *testing.T) {
	tests := []struct {
		streak     int
		evidence   bool
		next       int
		wantClears bool
	}{
		{0, true, 1, false},
		{1, true, 2, false},
		{2, true, 0, true}, // the third in a row clears
		{0, false, 0, false},
		{2, false, 0, false}, // any other window resets
	}
	for _, tt := range tests {
		next, clears := governor.MemoryClearStep(tt.streak, tt.evidence)
		if next != tt.next || clears != tt.wantClears {
			t.Errorf("MemoryClearStep(%d, %t) = %d, %t; want %d, %t", tt.streak, tt.evidence, next, clears, tt.next, tt.wantClears)
		}
	}
}

// window is one Observe call with the cumulative counters and the decision
// it must return.
type window struct {
	failures, resolved uint64
	action             governor.Action
	offer, lastBad     float64
}

func TestObserve(t *testing.T) {
	probing := governor.Config{Floor: 1, Ceiling: 1000, Start: 4, Low: 0.01, High: 0.05}
	tests := []struct {
		name    string
		cfg     governor.Config
		windows []window
	}{
		{"slow start doubles from the floor to the ceiling", cfg, []window{
			{0, 100, governor.Double, 20, 0},
			{0, 200, governor.Double, 40, 0},
			{1, 300, governor.Double, 80, 0}, // 1% is clean
			{1, 400, governor.Double, 100, 0},
			{1, 500, governor.Double, 100, 0},
		}},
		{"the window is the delta, not the lifetime ratio", cfg, []window{
			{0, 1000, governor.Double, 20, 0},
			// 50 of the last 100 failed; lifetime 50/1100 would hold.
			{50, 1100, governor.BackOff, 10, 20},
			// 0 of the last 100; lifetime 50/1200 would still hold.
			{50, 1200, governor.Recover, 15, 20},
		}},
		{"a window without resolved attempts holds", cfg, []window{
			{0, 100, governor.Double, 20, 0},
			{0, 100, governor.Hold, 20, 0},
			{7, 100, governor.Hold, 20, 0}, // failures alone are no window either
			{7, 200, governor.Double, 40, 0},
		}},
		{"counters that go backwards are a new baseline", cfg, []window{
			{100, 1000, governor.BackOff, 10, 10}, // x0.9 would be 9: floor
			{0, 40, governor.Hold, 10, 10},        // reset: hold
			{0, 140, governor.Probe, 11, 10},      // 0/100 since the reset
			{12, 20, governor.Hold, 11, 10},       // only resolved went back
			{12, 120, governor.Probe, 12, 10},     // 0/100 since
		}},
		{"memory clears after three clean windows at or above LastBad", probing, []window{
			{6, 100, governor.BackOff, 3.6, 4}, // x0.9
			{6, 200, governor.Probe, 4.6, 4},   // below 4: no evidence
			{6, 300, governor.Probe, 5.6, 4},   // 1
			{6, 400, governor.Probe, 6.6, 4},   // 2
			{6, 500, governor.Probe, 7.6, 0},   // 3: cleared
			{6, 600, governor.Double, 15.2, 0}, // slow start again
		}},
		{"any other window resets the streak", probing, []window{
			{6, 100, governor.BackOff, 3.6, 4},
			{6, 200, governor.Probe, 4.6, 4},
			{6, 300, governor.Probe, 5.6, 4}, // 1
			{6, 400, governor.Probe, 6.6, 4}, // 2
			{9, 500, governor.Hold, 6.6, 4},  // dead band: reset
			{9, 600, governor.Probe, 7.6, 4}, // 1
			{9, 600, governor.Hold, 7.6, 4},  // empty: reset
			{9, 700, governor.Probe, 8.6, 4}, // 1
			{9, 800, governor.Probe, 9.6, 4}, // 2
			{9, 900, governor.Probe, 10.6, 0},
		}},
		{"after a back-off: x1.5 to 75% of LastBad, then probes", governor.Config{Floor: 1, Ceiling: 1000, Start: 100, Low: 0.01, High: 0.05}, []window{
			{75, 100, governor.BackOff, 25, 100},
			{75, 200, governor.Recover, 37.5, 100},
			{75, 300, governor.Recover, 56.25, 100},
			{75, 400, governor.Recover, 75, 100},
			{75, 500, governor.Probe, 77, 100},
			{75, 600, governor.Probe, 79, 100},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := governor.New(tt.cfg)
			for i, w := range tt.windows {
				got := g.Observe(w.failures, w.resolved)
				want := governor.Decision{Action: w.action, Offer: w.offer, LastBad: w.lastBad}
				if !sameDecision(got, want) {
					t.Fatalf("window %d: Observe(%d, %d) = %s %v lastBad %v; want %s %v lastBad %v (%s)",
						i, w.failures, w.resolved, actionNames[got.Action], got.Offer, got.LastBad,
						actionNames[want.Action], want.Offer, want.LastBad, got.Reason)
				}
				if g.Offer() != got.Offer || g.LastBad() != got.LastBad {
					t.Fatalf("window %d: Offer(), LastBad() = %v, %v; want the decision's %v, %v", i, g.Offer(), g.LastBad(), got.Offer, got.LastBad)
				}
			}
		})
	}
}

func TestNewOpeningOffer(t *testing.T) {
	tests := []struct {
		start, want float64
	}{
		{0, 10}, // 0 means Floor
		{40, 40},
		{5, 10},    // below the floor
		{500, 100}, // above the ceiling
		{-3, 10},
	}
	for _, tt := range tests {
		c := cfg
		c.Start = tt.start
		g := governor.New(c)
		if got := g.Offer(); got != tt.want {
			t.Errorf("New(Start: %v).Offer() = %v; want %v", tt.start, got, tt.want)
		}
		if got := g.LastBad(); got != 0 {
			t.Errorf("New(Start: %v).LastBad() = %v; want 0", tt.start, got)
		}
	}
}

func TestNewPanicsNamingTheField(t *testing.T) {
	tests := []struct {
		field string
		cfg   governor.Config
	}{
		{"Floor", governor.Config{Floor: 0, Ceiling: 10}},
		{"Floor", governor.Config{Floor: math.NaN(), Ceiling: 10}},
		{"Ceiling", governor.Config{Floor: 10, Ceiling: 5}},
		{"Low", governor.Config{Floor: 1, Ceiling: 5, Low: -0.1, High: 0.1}},
		{"High", governor.Config{Floor: 1, Ceiling: 5, Low: 0.2, High: 0.1}},
		{"Start", governor.Config{Floor: 1, Ceiling: 5, Start: math.NaN()}},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tt.field) {
					t.Errorf("New(%+v) panicked with %v; want a panic naming %s", tt.cfg, r, tt.field)
				}
			}()
			governor.New(tt.cfg)
		}()
	}
}
