package console

import "testing"

// TestAllocsPerOpShowsARate: an allocation rate below one per call is
// written with the digits that tell it from none (rounded to one decimal,
// one every second call read 0.5 but one every thirtieth read 0.0).
func TestAllocsPerOpShowsARate(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{0, "0"}, {1, "1.0"}, {2.5, "2.5"}, {0.5, "0.5"}, {1.0 / 30, "0.033"}, {0.001, "0.001"}, {0.00012484, "0.00012"}} {
		if got := allocsPerOp(c.v); got != c.want {
			t.Errorf("allocsPerOp(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
