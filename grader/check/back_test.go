package check

import (
	"math/rand"
	"testing"
)

func TestStepBackDrawsTheChanceThenTheDistance(t *testing.T) {
	by := func(r *rand.Rand, s uint64, latest uint64) uint64 { return s + latest + uint64(r.Intn(1000)) }
	b := StepBack[uint64]{Chance: 0.5, By: by}
	r, want := rand.New(rand.NewSource(7)), rand.New(rand.NewSource(7))
	backs := 0
	for i := range uint64(200) {
		back, ok := b.Draw(r, 10, i)
		wantOK := Chance(want, 0.5)
		var wantBack uint64
		if wantOK {
			wantBack = by(want, 10, i)
			backs++
		}
		if back != wantBack || ok != wantOK {
			t.Fatalf("Draw(latest=%d) = %d, %v; want %d, %v (a chance, then By's draw)", i, back, ok, wantBack, wantOK)
		}
	}
	if backs == 0 || backs == 200 {
		t.Errorf("%d of 200 calls stepped back at Chance 0.5", backs)
	}
}

func TestZeroStepBackNeverStepsBackAndDrawsNothing(t *testing.T) {
	var b StepBack[uint64]
	if b.Allowed() {
		t.Error("the zero StepBack is Allowed; want not")
	}
	r := rand.New(rand.NewSource(3))
	if back, ok := b.Draw(r, 0, 100); ok || back != 0 {
		t.Errorf("zero StepBack: Draw = %d, %v; want 0, false", back, ok)
	}
	if got, want := r.Int63(), rand.New(rand.NewSource(3)).Int63(); got != want {
		t.Error("the zero StepBack's Draw drew from r; want no draw")
	}
}

func TestStepBackWithNoChanceDrawsTheChanceOnly(t *testing.T) {
	b := StepBack[uint64]{By: func(*rand.Rand, uint64, uint64) uint64 { return 1 }}
	if !b.Allowed() {
		t.Error("a StepBack with By is not Allowed; want Allowed")
	}
	r, want := rand.New(rand.NewSource(5)), rand.New(rand.NewSource(5))
	if _, ok := b.Draw(r, 0, 0); ok {
		t.Error("Chance 0: a call stepped back")
	}
	want.Float64()
	if r.Int63() != want.Int63() {
		t.Error("Chance 0: Draw drew other than one number for the chance")
	}
}
