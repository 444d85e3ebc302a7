package check

import (
	"fmt"
	"math"
	"strconv"
)

// U formats a uint64 argument so that a learner can paste it into Go:
// values next to MaxUint64 as math.MaxUint64-k, large ones with digit
// separators (1_000_000).
func U(x uint64) string {
	if d := math.MaxUint64 - x; d < 1_000_000 {
		if d == 0 {
			return "math.MaxUint64"
		}
		return fmt.Sprintf("math.MaxUint64-%d", d)
	}
	s := strconv.FormatUint(x, 10)
	if len(s) <= 4 {
		return s
	}
	return Grouped(s, '_')
}

// Count writes n with a comma between each group of three digits:
// Count(65536) is "65,536".
func Count(n int) string { return Grouped(strconv.Itoa(n), ',') }

// Grouped returns digits, a run of decimal digits, with sep between each
// group of three from the right: Grouped("65536", ',') is "65,536".
func Grouped(digits string, sep byte) string {
	var out []byte
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			out = append(out, sep)
		}
		out = append(out, digits[i])
	}
	return string(out)
}

// B formats a bool result.
func B(b bool) string { return strconv.FormatBool(b) }
