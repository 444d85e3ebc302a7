package tokenbucket

import (
	"fmt"
	"math/big"
	"strings"

	"ratelab/grader/check"
	gm "ratelab/grader/model"
)

// explainFractional says, in the script's numbers, how the calls came less
// than a token apart and what they earned, exactly: an amount a
// nano-token short of a whole one is what such a script turns on.
func explainFractional(s script, t check.Trace, why string) string {
	if len(t.Steps) <= 1 {
		return explain(s, t, why)
	}
	last := len(t.Steps) - 1
	var gaps []string
	earned := new(big.Int) // in units of 10^-9 token, exactly
	rate := new(big.Int).SetUint64(s.Setup.Rate)
	latest := s.Setup.Start
	for _, o := range s.Ops[1 : last+1] {
		now := o.At(latest)
		if d := now - latest; now > latest {
			e := new(big.Int).Mul(new(big.Int).SetUint64(d), rate)
			earned.Add(earned, e)
			if len(gaps) < 4 {
				gaps = append(gaps, fmt.Sprintf("%s ns (%s of a token)", check.U(d), gm.Tokens(e)))
			}
		}
		latest = max(latest, now)
	}
	if len(gaps) == 0 {
		return why
	}
	more := ""
	if n := strings.Count(strings.Join(gaps, ","), "ns"); n < last {
		more = ", …"
	}
	return fmt.Sprintf("After the first call, the calls here came %s%s apart at %s tokens/s: %s earned by the last call, in parts smaller than one token. %s",
		strings.Join(gaps, ", "), more, check.U(s.Setup.Rate), gm.TokensOf(earned), why)
}
