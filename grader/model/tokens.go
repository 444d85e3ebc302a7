package model

import (
	"fmt"
	"math/big"
	"strings"
)

// Tokens writes units, an amount in units of 10^-9 token, as a number of
// tokens with every digit it has: an amount just short of a whole token
// never reads as one (999_999_999 units is "0.999999999", 1_000_000_001 is
// "1.000000001", 1_500_000_000 is "1.5", 2_000_000_000 is "2"). The
// grader's messages and the browser's replay both write amounts with it.
func Tokens(units *big.Int) string {
	whole, part := new(big.Int).QuoRem(units, unitsPerToken, new(big.Int))
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
