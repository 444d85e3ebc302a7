package report

import (
	"cmp"
	"strconv"
)

// Figure writes a measured figure x that a verdict compares with limit
// (a budget, MaxAllocsPerOp), in strconv's format fmt ('f' or 'g') with
// the least precision, from prec up, that keeps it on its side of limit:
// over, under or at it. Rounded further, a figure over its limit would
// read as the limit itself, which the limit allows ("40.0 ns, over the
// 40 ns budget"; "0.01 allocations per call, over one per 100 calls").
// With fmt 'f' and prec 1, 40.04 over 40 is "40.04", 39.96 is "39.96" and
// 12.34 is "12.3".
func Figure(x, limit float64, fmt byte, prec int) string {
	side := func(v float64) int { return cmp.Compare(v, limit) }
	for p := prec; p < prec+12; p++ {
		s := strconv.FormatFloat(x, fmt, p, 64)
		if v, err := strconv.ParseFloat(s, 64); err == nil && side(v) == side(x) {
			return s
		}
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
