package check

import (
	"math"
	"math/big"
	"testing"
)

func TestScaledDividesByAPowerOfTenIntoRange(t *testing.T) {
	for _, c := range []struct{ most, k uint64 }{{1, 1}, {ScaledBound, 1}, {ScaledBound + 1, 10}, {math.MaxUint64, 100_000_000_000_000}} {
		s := Scaled(c.most, math.MaxUint64)
		if s.K != c.k || s.T != 1 || s.Tokens(c.most) > ScaledBound+1 {
			t.Errorf("Scaled(%d) = K %d (capacity %d); want K %d", c.most, s.K, s.Tokens(c.most), c.k)
		}
	}
	if got := (Scale{K: 10, T: 1}).Tokens(11); got != 2 {
		t.Errorf("Tokens(11) at K 10 = %d; want 2 (rounded up: a count above 0 stays so)", got)
	}
	if got := Kept.Capacity(math.MaxUint64); got != MostScaled {
		t.Errorf("Kept.Capacity(MaxUint64) = %d; want %d", got, MostScaled)
	}
}

func TestRequestStaysGrantedOrRefusedAndKeepsItsMargin(t *testing.T) {
	k := Scale{K: 1000, T: 1}
	for _, c := range []struct{ n, avail, now, want uint64 }{
		{0, 50, 5, 0},                            // nothing asked stays nothing
		{50_000, 50_000, 50, 50},                 // all that is there
		{49_999, 50_000, 50, 49},                 // one short of it
		{50_001, 50_000, 50, 51},                 // one past it
		{20_000, 50_000, 50, 20},                 // well below: scaled
		{49_000, 50_000, 50, 47},                 // below, but scaled onto what is there: kept clear of it
		{math.MaxUint64, 50_000, 50, MostScaled}, // far above: scaled, at most MostScaled
		{60_000, 50_000, 59, 62},                 // above, but scaled below what is there: kept clear of it
	} {
		if got := k.Request(c.n, c.avail, c.now); got != c.want {
			t.Errorf("Request(%d, avail %d, now %d) = %d; want %d", c.n, c.avail, c.now, got, c.want)
		}
		if got := k.Request(c.n, c.avail, c.now); (c.n <= c.avail) != (got <= c.now) {
			t.Errorf("Request(%d, avail %d, now %d) = %d: granted and refused swapped", c.n, c.avail, c.now, got)
		}
	}
	if got := Kept.Request(7, 1<<60, 9_000); got != 7 {
		t.Errorf("Kept.Request(7) = %d; want 7 (a count that fits is kept)", got)
	}
}

func TestElapsedKeepsWhatFillsAndWhatDoesNot(t *testing.T) {
	rate := uint64(1_000_000_000) // a token a ns
	room := big.NewInt(5_000_000_000)
	// Filled in the original: just what fills, however long it was.
	if got, kept := Kept.Elapsed(math.MaxUint64, StepOf(room, rate, true)); got != 5 || !kept {
		t.Errorf("a step that filled: %d, %v; want 5 ns, kept", got, kept)
	}
	// Not filled: as long as it was, but short of filling.
	if got, kept := Kept.Elapsed(3, StepOf(room, rate, false)); got != 3 || !kept {
		t.Errorf("a short step: %d, %v; want 3 ns, kept", got, kept)
	}
	if got, kept := Kept.Elapsed(9, StepOf(room, rate, false)); got != 4 || !kept {
		t.Errorf("a step that did not fill, longer than the room: %d, %v; want 4 ns, kept", got, kept)
	}
	// Not filled, but a nanosecond fills the rewritten bucket: not kept.
	if got, kept := Kept.Elapsed(1, StepOf(big.NewInt(1), rate, false)); got != 1 || kept {
		t.Errorf("a step no rewriting can keep short of full: %d, %v; want 1 ns, not kept", got, kept)
	}
	if got, _ := Kept.Elapsed(0, StepOf(room, rate, true)); got != 0 {
		t.Errorf("no step: %d; want 0", got)
	}
	// Two buckets: the one that filled fills, the other not.
	st := StepOf(big.NewInt(2_000_000_000), rate, true).And(StepOf(room, rate, false))
	if got, kept := Kept.Elapsed(100, st); got != 4 || !kept {
		t.Errorf("two buckets: %d, %v; want 4 ns (fills the first, not the second)", got, kept)
	}
}

func TestScaledSlowsTimeWhereTheRateWouldVanish(t *testing.T) {
	// 10^12 tokens at a token a second: divided by 10^6, the rate of 1
	// unit a ns would be 10^-6 unit; time is slowed 10^6 times instead.
	s := Scaled(1_000_000_000_000, 1)
	if s.K != 1_000_000 || s.T != 1_000_000 || s.Rate(1) != 1 {
		t.Fatalf("Scaled(10^12, 1) = %+v, rate %d; want K and T 10^6, rate 1", s, s.Rate(1))
	}
	if got, _ := s.Elapsed(3_000_000, Step{Room: math.MaxUint64}); got != 3 {
		t.Errorf("3 ms at T 10^6: %d ns; want 3", got)
	}
	if got := s.Rate(5); got != 5 {
		t.Errorf("a rate 5 times the fastest's share: %d; want 5", got)
	}
}
