package gradient2

import (
	"math"
	"testing"
)

// TestLongRTT checks the run's copy of the long RTT against the
// exercise's definition, sample by sample.
func TestLongRTT(t *testing.T) {
	a := longRTT{factor: 2.0 / 5} // LongWindow 4
	var sum float64
	for i := 1; i <= 10; i++ { // warm-up: the plain mean
		x := float64(100 + 10*i)
		sum += x
		a.add(x)
		if want := sum / float64(i); math.Abs(a.value-want) > 1e-9 {
			t.Fatalf("sample %d: long = %v, want the mean %v", i, a.value, want)
		}
	}
	a.add(200) // exponential from the 11th
	if want := 155*0.6 + 200*0.4; math.Abs(a.value-want) > 1e-9 {
		t.Fatalf("sample 11: long = %v, want %v", a.value, want)
	}
	before := a.value
	a.add(50) // long/short > 2: decay by 5% after the average
	if want := (before*0.6 + 50*0.4) * 0.95; math.Abs(a.value-want) > 1e-9 {
		t.Fatalf("sample 12: long = %v, want %v (decayed)", a.value, want)
	}
}

// During the warm-up a decay does not survive the next sample: the mean is
// taken from the sum.
func TestLongRTTDecayDuringWarmUp(t *testing.T) {
	a := longRTT{factor: 2.0 / 601}
	a.add(1000)
	a.add(100) // mean 550 > 2·100: decayed to 522.5
	if math.Abs(a.value-522.5) > 1e-9 {
		t.Fatalf("long = %v, want 522.5", a.value)
	}
	a.add(400) // mean of three
	if math.Abs(a.value-500) > 1e-9 {
		t.Fatalf("long = %v, want 500", a.value)
	}
}
