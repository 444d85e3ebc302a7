package harness

import (
	"testing"

	"ratelab/grader/check"
)

// TestBenchedServesTheFuncsAndBothLoops checks that Benched serves funcs
// by name and runs the loop on impl as "learner" and on ref as
// "reference", the two loops the budget check asks for.
func TestBenchedServesTheFuncsAndBothLoops(t *testing.T) {
	type impl struct{ step uint64 }
	loop := func(i impl, seed uint64) func(int) uint64 {
		return func(n int) uint64 { return seed + i.step*uint64(n) }
	}
	r := Local(Benched(map[string]any{"Split": func(x uint64) (uint64, bool) { return x / 2, x%2 == 1 }}, impl{3}, impl{5}, loop))
	var half uint64
	var odd bool
	r.Call(0, "Split", []any{uint64(9)}, &half, &odd)
	if half != 4 || !odd {
		t.Errorf("Split(9) = %d, %v; want 4, true", half, odd)
	}
	for _, c := range []struct {
		loop string
		want uint64
	}{{"learner", 30}, {"reference", 50}} {
		if run := r.Bench(check.BenchSpec{Loop: c.loop, Seed: 1000, N: 10}); run.Digest != 1000+c.want || run.Panic != nil {
			t.Errorf("Bench(%s, seed 1000, 10) = %+v, want digest %d", c.loop, run, 1000+c.want)
		}
	}
}
