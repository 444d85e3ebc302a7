package report

import "testing"

// A figure next to its limit keeps the digits that put it on its side;
// one far from it is written as briefly as asked.
func TestFigureKeepsItsSideOfTheLimit(t *testing.T) {
	for _, c := range []struct {
		x, limit float64
		fmt      byte
		prec     int
		want     string
	}{
		{40.04, 40, 'f', 1, "40.04"},
		{39.96, 40, 'f', 1, "39.96"},
		{40, 40, 'f', 1, "40.0"},
		{40.00001, 40, 'f', 1, "40.00001"},
		{12.34, 40, 'f', 1, "12.3"},
		{100.4, 100, 'f', 0, "100.4"},
		{99.50248756218906, 100, 'f', 0, "99.5"},
		{201.0 / 20_000, MaxAllocsPerOp, 'g', 2, "0.01005"},
		{0.25, MaxAllocsPerOp, 'g', 2, "0.25"},
		{0.00012, MaxAllocsPerOp, 'g', 2, "0.00012"},
	} {
		if got := Figure(c.x, c.limit, c.fmt, c.prec); got != c.want {
			t.Errorf("Figure(%v, %v, %q, %d) = %q, want %q", c.x, c.limit, c.fmt, c.prec, got, c.want)
		}
	}
}
