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
	if x < 10_000 {
		return strconv.FormatUint(x, 10)
	}
	var buf [20]byte // the digits, then room for their separators
	return string(appendGrouped(make([]byte, 0, 26), strconv.AppendUint(buf[:0], x, 10), '_'))
}

// Count writes n with a comma between each group of three digits:
// Count(65536) is "65,536".
func Count(n int) string { return Grouped(strconv.Itoa(n), ',') }

// Grouped returns digits, a run of decimal digits, with sep between each
// group of three from the right: Grouped("65536", ',') is "65,536".
func Grouped(digits string, sep byte) string {
	return string(appendGrouped(make([]byte, 0, len(digits)+len(digits)/3), []byte(digits), sep))
}

// appendGrouped appends digits to b as Grouped writes them. U calls it for
// every number of every step a replay records, so it makes one string of
// each number and nothing else.
func appendGrouped(b, digits []byte, sep byte) []byte {
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b = append(b, sep)
		}
		b = append(b, d)
	}
	return b
}

// B formats a bool result.
func B(b bool) string { return strconv.FormatBool(b) }
