package tokenbucket

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
)

// explainFractional says, in the script's numbers, how the calls came less
// than a token apart and what they earned.
func explainFractional(s script, t check.Trace, why string) string {
	if len(t.Steps) <= 1 {
		return explain(s, t, why)
	}
	last := len(t.Steps) - 1
	var gaps []string
	earned := 0.0
	latest := s.Setup.Start
	for _, o := range s.Ops[1 : last+1] {
		now := o.At(latest)
		if d := now - latest; now > latest {
			e := float64(d) * float64(s.Setup.Rate) / 1e9
			earned += e
			if len(gaps) < 4 {
				gaps = append(gaps, fmt.Sprintf("%s ns (%.3g of a token)", check.U(d), e))
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
	tokens := fmt.Sprintf("%.3g tokens", earned)
	if tokens == "1 tokens" {
		tokens = "1 token"
	}
	return fmt.Sprintf("After the first call, the calls here came %s%s apart at %s tokens/s: %s earned by the last call, in parts smaller than one token. %s",
		strings.Join(gaps, ", "), more, check.U(s.Setup.Rate), tokens, why)
}
