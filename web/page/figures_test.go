package page

import "testing"

// A figure next to its budget keeps the digits that put it on its side,
// on the page as in the report's messages; others read as they always
// did.
func TestFiguresKeepTheirSideOfTheBudget(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	for _, c := range []struct {
		v, budget *float64
		want      string
	}{
		{f(40.04), f(40), "40.04 ns"},
		{f(39.96), f(40), "39.96 ns"},
		{f(52.3), f(40), "52.3 ns"},
		{f(3.44), f(40), "3.4 ns"},
		{f(20), f(40), "20 ns"},
		{f(100.4), f(100), "100.4 ns"},
		{f(150.3), f(100), "150 ns"},
		{f(11.84), nil, "11.8 ns"},
		{nil, f(40), "—"},
	} {
		if got := nsAgainst(c.v, c.budget); got != c.want {
			t.Errorf("nsAgainst(%v, %v) = %q, want %q", c.v, c.budget, got, c.want)
		}
	}
	for v, want := range map[float64]string{201.0 / 20_000: "0.01005", 0.72: "0.72", 0.033: "0.033", 0.00012: "0.00012", 1: "1"} {
		if got := allocsFigure(f(v)); got != want {
			t.Errorf("allocsFigure(%v) = %q, want %q", v, got, want)
		}
	}
}
