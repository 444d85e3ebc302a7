package gcra

import (
	"ratelab/grader/check"
)

func shrinkSetup(s setup) []setup {
	var out []setup
	for _, b := range check.Smaller(s.Burst) {
		out = append(out, setup{s.Rate, b, s.Start})
	}
	for _, r := range check.Smaller(s.Rate) {
		out = append(out, setup{r, s.Burst, s.Start})
	}
	for _, t := range check.Simpler(s.Start) {
		out = append(out, setup{s.Rate, s.Burst, t})
	}
	return out
}

func shrinkOp(o op) []op {
	var out []op
	for _, w := range check.Simpler(o.Wait) {
		out = append(out, op{When: check.When{Wait: w, Back: o.Back}})
	}
	for _, b := range check.Smaller(o.Back) {
		out = append(out, op{When: check.When{Wait: o.Wait, Back: b}})
	}
	return out
}
