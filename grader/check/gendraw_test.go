package check

import (
	"math/rand"
	"testing"
)

func TestDrawTriesStopsAtTheFirstAccepted(t *testing.T) {
	draws := 0
	draw := func(r *rand.Rand) int { draws++; return r.Intn(10) }
	r, want := rand.New(rand.NewSource(1)), rand.New(rand.NewSource(1))
	got, ok := DrawTries(r, 100, draw, func(x int) bool { return x == 7 })
	n := 1
	for want.Intn(10) != 7 {
		n++
	}
	if got != 7 || !ok || draws != n {
		t.Errorf("DrawTries = %d, %v after %d draws; want 7, true after %d (the first 7 of the seed)", got, ok, draws, n)
	}
	if r.Int63() != want.Int63() {
		t.Error("DrawTries drew on after the accepted draw")
	}
}

func TestDrawTriesGivesUpAfterTries(t *testing.T) {
	draws := 0
	got, ok := DrawTries(rand.New(rand.NewSource(1)), 8, func(*rand.Rand) int { draws++; return draws }, func(int) bool { return false })
	if ok || draws != 8 || got != 8 {
		t.Errorf("DrawTries = %d, %v after %d draws; want the 8th draw, false after 8", got, ok, draws)
	}
}
