package check

import (
	"math"
	"slices"
	"testing"
)

func TestSmallerCandidatesAreStrictlySmaller(t *testing.T) {
	for _, x := range []uint64{0, 1, 2, 3, 10, 1000, 1 << 40, math.MaxUint64} {
		c := Smaller(x)
		for _, v := range c {
			if v >= x {
				t.Errorf("Smaller(%d) has %d, not smaller", x, v)
			}
		}
		if x > 0 && !slices.Contains(c, 0) {
			t.Errorf("Smaller(%d) = %v, want 0 among them", x, c)
		}
		if x > 1 && !slices.Contains(c, x-1) {
			t.Errorf("Smaller(%d) = %v, want x-1 among them", x, c)
		}
		if len(c) > 70 {
			t.Errorf("Smaller(%d) has %d candidates, want O(log x)", x, len(c))
		}
	}
}

func TestSimplerMovesTowardTheNearerEnd(t *testing.T) {
	for _, x := range []uint64{math.MaxUint64 - 5, math.MaxUint64 - 1<<40} {
		for _, v := range Simpler(x) {
			if v != 0 && v <= x {
				t.Errorf("Simpler(%d) has %d: should be 0 or closer to MaxUint64", x, v)
			}
		}
	}
	if got := Simpler(math.MaxUint64); !slices.Equal(got, []uint64{0}) {
		t.Errorf("Simpler(MaxUint64) = %v, want [0]", got)
	}
}
