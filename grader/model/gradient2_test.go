package model

import "testing"

// TestGradient2WarmupAndDecay pins the long RTT down on the contract's
// own words: the mean of the first 10, then the average, the decay kept
// for the next sample.
func TestGradient2WarmupAndDecay(t *testing.T) {
	m := NewGradient2(Gradient2Config{InitialLimit: 100, MinLimit: 1, MaxLimit: 1000, Smoothing: 1, RTTTolerance: 1, LongWindow: 3})
	for i, x := range []uint64{100, 300} {
		m.Update(x, 1000)
		if want := []float64{100, 200}[i]; m.Long != want {
			t.Fatalf("after sample %d the long RTT is %v; want %v", i+1, m.Long, want)
		}
	}
	for range 8 {
		m.Update(200, 1000)
	}
	smp := m.Update(50, 0) // 0.5*200 + 0.5*50 = 125 > 2*50
	if smp.Long != 125 || !smp.Decays || m.Long != 125*0.95 || !smp.AppLimited {
		t.Errorf("decaying sample: used %v (want 125), stored %v (want 118.75), decays %t, app-limited %t", smp.Long, m.Long, smp.Decays, smp.AppLimited)
	}
}

// TestGradient2Limit: the gradient is RTTTolerance×long/short clamped to
// [0.5, 1]; the limit moves Smoothing of the way to limit×gradient plus
// the queue allowance (4 without QueueSize), clamped to [MinLimit,
// MaxLimit], and stays while fewer than half of it are in flight. A
// clamped limit is exact.
func TestGradient2Limit(t *testing.T) {
	cfg := Gradient2Config{InitialLimit: 100, MinLimit: 10, MaxLimit: 120, Smoothing: 0.5, RTTTolerance: 1.5, LongWindow: 600}
	m := NewGradient2(cfg)
	if s := m.Update(100, 50); s.Raw != 1.5 || s.Gradient != 1 || s.Queue != 4 || s.Smoothed != 102 || m.Est != 102 || m.Exact {
		t.Fatalf("first sample: %+v, limit %v exact %v; want gradient 1 (raw 1.5), queue 4, limit 102 computed", s, m.Est, m.Exact)
	}
	if s := m.Update(1000, 50); !s.AppLimited || m.Est != 102 {
		t.Fatalf("50 in flight of 102: %+v, limit %v; want app-limited, 102", s, m.Est)
	}
	// long = (100+1000+400)/3 = 500; raw 1.5×500/400 = 1.875 → gradient 1.
	if s := m.Update(400, 60); s.Gradient != 1 || s.Smoothed != 104 || m.Est != 104 {
		t.Fatalf("third sample: %+v, limit %v; want gradient 1, limit 104", s, m.Est)
	}
	// long = (1500+4000)/4 = 1375; raw 1.5×1375/4000 ≈ 0.52.
	s := m.Update(4000, 60)
	if s.Raw >= 0.53 || s.Raw <= 0.51 || s.Gradient != s.Raw {
		t.Fatalf("fourth sample: raw %v, gradient %v; want about 0.52, unclamped", s.Raw, s.Gradient)
	}
	cfg.QueueSize = func(limit int) float64 { return float64(limit) }
	m = NewGradient2(cfg)
	if s := m.Update(100, 100); s.Queue != 100 || s.Smoothed != 150 || m.Est != 120 || !m.Exact {
		t.Fatalf("with QueueSize: %+v, limit %v exact %v; want queue 100, smoothed 150 clamped to 120, exact", s, m.Est, m.Exact)
	}
}
