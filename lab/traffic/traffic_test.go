package traffic_test

import (
	"errors"
	"slices"
	"testing"

	"ratelab/lab/traffic"
)

func take(s traffic.Source, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = s.Next()
	}
	return out
}

func named(t *testing.T, name string, limit, window, seed uint64) traffic.Source {
	t.Helper()
	s, err := traffic.Named(name, limit, window, seed)
	if err != nil {
		t.Fatalf("Named(%q, %d, %d, %d): %v", name, limit, window, seed, err)
	}
	return s
}

func TestNamedIsDeterministicAndOrdered(t *testing.T) {
	for _, name := range traffic.Names {
		t.Run(name, func(t *testing.T) {
			a := take(named(t, name, 100, 1_000_000_000, 7), 5000)
			b := take(named(t, name, 100, 1_000_000_000, 7), 5000)
			if !slices.Equal(a, b) {
				t.Fatalf("two streams from seed 7 differ")
			}
			for i := 1; i < len(a); i++ {
				if a[i] < a[i-1] {
					t.Fatalf("time %d is %d, before time %d (%d)", i, a[i], i-1, a[i-1])
				}
			}
		})
	}
}

func TestRandomScenariosDependOnSeed(t *testing.T) {
	for _, name := range []string{traffic.BurstyName, traffic.RandomName} {
		a := take(named(t, name, 100, 1_000_000_000, 1), 1000)
		b := take(named(t, name, 100, 1_000_000_000, 2), 1000)
		if slices.Equal(a, b) {
			t.Errorf("%s: seeds 1 and 2 gave the same stream", name)
		}
	}
}

// TestMeanLoad checks that steady, bursty and random offer 5/4 of the limit
// rate over a long run: 125 messages per second for 100 per second.
func TestMeanLoad(t *testing.T) {
	const window = 1_000_000_000
	for _, name := range []string{traffic.SteadyName, traffic.BurstyName, traffic.RandomName} {
		t.Run(name, func(t *testing.T) {
			times := take(named(t, name, 100, window, 9), 100_000)
			perSec := float64(len(times)) / (float64(times[len(times)-1]) / window)
			if perSec < 120 || perSec > 130 {
				t.Errorf("%s offers %.1f messages per second, want about 125", name, perSec)
			}
		})
	}
}

func TestEdge(t *testing.T) {
	// 4 each side of 1 s, packed into 40 ms, then the same around 3 s.
	got := take(traffic.NewEdge(4, 1_000_000_000, 40_000_000), 10)
	want := []uint64{
		960_000_000, 970_000_000, 980_000_000, 990_000_000,
		1_000_000_000, 1_010_000_000, 1_020_000_000, 1_030_000_000,
		2_960_000_000, 2_970_000_000,
	}
	if !slices.Equal(got, want) {
		t.Errorf("Edge times = %v, want %v", got, want)
	}
}

func TestNamedEdgeSpan(t *testing.T) {
	tests := []struct {
		window     uint64
		first, end uint64 // first message, and the boundary it leads up to
	}{
		{1_000_000_000, 950_000_000, 1_000_000_000},     // 50 ms
		{200_000_000, 190_000_000, 200_000_000},         // W/20 = 10 ms
		{10_000_000_000, 9_950_000_000, 10_000_000_000}, // capped at 50 ms
	}
	for _, tt := range tests {
		times := take(named(t, traffic.EdgeName, 10, tt.window, 0), 20)
		if times[0] != tt.first || times[9] >= tt.end || times[10] != tt.end {
			t.Errorf("edge at W=%d: first %d, 10th %d, 11th %d; want %d, before %d, %d", tt.window, times[0], times[9], times[10], tt.first, tt.end, tt.end)
		}
	}
}

func TestBurstyMakesBursts(t *testing.T) {
	// Bursts average 50 messages 0.5 ms apart; gaps are far longer.
	times := take(named(t, traffic.BurstyName, 100, 1_000_000_000, 5), 10_000)
	var tight int
	for i := 1; i < len(times); i++ {
		if times[i]-times[i-1] <= 500_000 {
			tight++
		}
	}
	if frac := float64(tight) / float64(len(times)-1); frac < 0.9 {
		t.Errorf("%.2f of intervals are within a burst, want most of them", frac)
	}
}

func TestNaiveDemo(t *testing.T) {
	got := take(named(t, traffic.NaiveDemoName, 5, 1_000_000, 0), 3)
	if want := []uint64{0, 100_000, 200_000}; !slices.Equal(got, want) {
		t.Errorf("naive-demo times = %v, want %v", got, want)
	}
}

func TestNamedErrors(t *testing.T) {
	if _, err := traffic.Named("flood", 10, 10, 0); !errors.Is(err, traffic.ErrUnknown) {
		t.Errorf("Named(flood) error = %v, want ErrUnknown", err)
	}
	if _, err := traffic.Named(traffic.SteadyName, 0, 10, 0); err == nil {
		t.Errorf("Named(steady, limit 0) succeeded, want an error")
	}
}
