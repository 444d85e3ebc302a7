package model

import (
	"math/big"
	"testing"
)

// Tokens writes every digit of an amount, so that one a nano-token short
// of a whole token never reads as one; TokensOf says "token" for exactly
// one.
func TestTokens(t *testing.T) {
	huge, _ := new(big.Int).SetString("18446744073709551615000000001", 10) // MaxUint64 tokens and a nano-token
	for _, c := range []struct {
		units *big.Int
		want  string
		of    string
	}{
		{big.NewInt(0), "0", "0 tokens"},
		{big.NewInt(1), "0.000000001", "0.000000001 tokens"},
		{big.NewInt(999_999_999), "0.999999999", "0.999999999 tokens"},
		{big.NewInt(1_000_000_000), "1", "1 token"},
		{big.NewInt(1_000_000_001), "1.000000001", "1.000000001 tokens"},
		{big.NewInt(1_500_000_000), "1.5", "1.5 tokens"},
		{big.NewInt(2_000_000_000), "2", "2 tokens"},
		{huge, "18446744073709551615.000000001", "18446744073709551615.000000001 tokens"},
	} {
		if got := Tokens(c.units); got != c.want {
			t.Errorf("Tokens(%v) = %q, want %q", c.units, got, c.want)
		}
		if got := TokensOf(c.units); got != c.of {
			t.Errorf("TokensOf(%v) = %q, want %q", c.units, got, c.of)
		}
	}
}
