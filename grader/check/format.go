package check

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
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

// Tokens writes units, an amount in units of 10^-9 token, as a number of
// tokens with every digit it has: an amount just short of a whole token
// never reads as one (999_999_999 units is "0.999999999", 1_000_000_001 is
// "1.000000001", 1_500_000_000 is "1.5", 2_000_000_000 is "2").
func Tokens(units *big.Int) string {
	whole, part := new(big.Int).QuoRem(units, big.NewInt(1_000_000_000), new(big.Int))
	s := whole.String()
	if part.Sign() != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%09d", part.Uint64()), "0")
	}
	return s
}

// TokensOf is Tokens of units followed by "token" or "tokens".
func TokensOf(units *big.Int) string {
	if s := Tokens(units); s != "1" {
		return s + " tokens"
	}
	return "1 token"
}
