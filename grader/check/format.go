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
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, '_')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// B formats a bool result.
func B(b bool) string { return strconv.FormatBool(b) }
