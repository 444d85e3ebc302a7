package gradient2

import "testing"

// The long RTT is internal; these tests pin its three phases down directly.

func TestLongRTTWarmupIsThePlainMean(t *testing.T) {
	a := longRTT{factor: 2.0 / 601}
	for i, tt := range []struct{ x, want float64 }{
		{100, 100}, {300, 200}, {200, 200}, {400, 250},
	} {
		if got := a.add(tt.x); got != tt.want {
			t.Errorf("sample %d: add(%v) = %v; want %v (the mean so far)", i+1, tt.x, got, tt.want)
		}
	}
}

func TestLongRTTThenExponential(t *testing.T) {
	a := longRTT{factor: 2.0 / 4} // LongWindow 3
	for range warmupSamples {
		a.add(100)
	}
	// 0.5*100 + 0.5*200, then 0.5*150 + 0.5*50.
	for i, tt := range []struct{ x, want float64 }{{200, 150}, {50, 100}} {
		if got := a.add(tt.x); got != tt.want {
			t.Errorf("sample %d: add(%v) = %v; want %v", warmupSamples+i+1, tt.x, got, tt.want)
		}
	}
}

func TestLongRTTDecayDuringWarmupIsForgotten(t *testing.T) {
	a := longRTT{factor: 2.0 / 601}
	a.add(400)
	a.add(100) // mean 250
	a.value *= 0.95
	if got := a.add(400); got != 300 {
		t.Errorf("add(400) after a decayed warm-up sample = %v; want 300, the mean of 400, 100, 400", got)
	}
}

func TestUpdateDecaysTheStoredValueAfterUse(t *testing.T) {
	l := New(Config{InitialLimit: 100, MinLimit: 1, MaxLimit: 1000, Smoothing: 1, RTTTolerance: 1, LongWindow: 3})
	for range warmupSamples {
		l.Update(400, 100)
	}
	l.Update(100, 0) // 0.5*400 + 0.5*100 = 250 > 2*100
	if l.long.value != 237.5 {
		t.Errorf("long RTT after a decaying sample = %v; want 250*0.95 = 237.5", l.long.value)
	}
}
