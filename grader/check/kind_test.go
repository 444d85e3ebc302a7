package check

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"ratelab/grader/report"
)

// adder is a toy implementation with three bugs: it ignores negative
// amounts, adds 8 for 9, and panics on 13.
type adder struct{ sum int }

func (a *adder) add(x int) int {
	if x == 13 {
		panic("unlucky")
	}
	if x == 9 {
		x = 8
	}
	if x > 0 {
		a.sum += x
	}
	return a.sum
}

func replayAdder(s Script[int, int]) Trace {
	t := Trace{Setup: fmt.Sprintf("New(%d)", s.Setup)}
	a, want := &adder{sum: s.Setup}, s.Setup
	for _, x := range s.Ops {
		want += x
		got, p := Call(func() int { return a.add(x) })
		if !t.Step(fmt.Sprintf("Add(%d)", x), fmt.Sprint(got), fmt.Sprint(want), p) {
			return t
		}
	}
	return t
}

func adderProperty(gen func(r *rand.Rand) int) Property[int, int] {
	return Property[int, int]{
		Gen: func(r *rand.Rand, size int) Script[int, int] {
			ops := make([]int, 1+r.Intn(10))
			for i := range ops {
				ops[i] = gen(r)
			}
			return Script[int, int]{Setup: r.Intn(5), Ops: ops}
		},
		ShrinkOp: func(x int) []int {
			if x == 0 {
				return nil
			}
			return []int{0, x / 2}
		},
		Replay: replayAdder,
	}
}

// TestFindingsKeepTheirKind: a property finds the adder's panic and its
// wrong sums as separate findings, each shrunk without turning into the
// other (a wrong sum stays a wrong sum, a panic a panic), and a property
// on code that fails nothing passes.
func TestFindingsKeepTheirKind(t *testing.T) {
	p := adderProperty(func(r *rand.Rand) int { return Pick(r, 1, 2, 9, -4, 13) })
	o := p.Run(1, "why")
	var panics, wrong int
	for _, f := range o.Findings {
		steps := f.Counterexample.Steps
		last := steps[len(steps)-1].Call
		switch f.Status {
		case report.Error:
			panics++
			if last != "Add(13)" {
				t.Errorf("a panic shrunk to %+v, want it to end in Add(13)", steps)
			}
		case report.Failed:
			wrong++
			if slices.ContainsFunc(steps, func(s report.Step) bool { return s.Call == "Add(13)" }) {
				t.Errorf("a wrong sum shrunk to a script with the panic: %+v", steps)
			}
		}
		if len(steps) > 2 {
			t.Errorf("finding not shrunk: %+v", steps)
		}
	}
	if panics != 1 || wrong != 1 {
		t.Errorf("findings %+v: %d panics and %d wrong sums, want one of each (an unexplained wrong sum is found once)", o.Findings, panics, wrong)
	}
	p.Replay = func(s Script[int, int]) Trace { return Trace{} }
	if o := p.Run(1, "why"); o.Status != report.Passed {
		t.Errorf("correct code: %s, want passed", o.Status)
	}
}

// TestAHangIsOneFindingNotReplayed: a call that does not return (an Add
// of 7, reported as a Hang) is a timeout finding cut after that call and
// never shrunk nor replayed again; the property meets at most MaxHangs of
// them, and still finds the wrong sums of the scripts that do not reach it.
func TestAHangIsOneFindingNotReplayed(t *testing.T) {
	p := adderProperty(func(r *rand.Rand) int {
		if r.Intn(40) == 0 {
			return 7
		}
		return Pick(r, 1, 2, 9)
	})
	hangs := 0
	p.Replay = func(s Script[int, int]) Trace {
		i := slices.Index(s.Ops, 7)
		if i < 0 {
			return replayAdder(s)
		}
		t := replayAdder(Script[int, int]{Setup: s.Setup, Ops: s.Ops[:i]})
		if !t.Bad {
			hangs++
			t.Step("Add(7)", "", "?", &Panic{Value: Hang{Message: "Add(7) did not return."}})
		}
		return t
	}
	o := p.Run(1, "why")
	var timeouts, wrong int
	for _, f := range o.Findings {
		steps := f.Counterexample.Steps
		switch last := steps[len(steps)-1]; f.Status {
		case report.Timeout:
			timeouts++
			if last.Call != "Add(7)" || f.Head != "Add(7) did not return." {
				t.Errorf("a timeout ends on %+v, said %q; want Add(7), named", last, f.Head)
			}
		case report.Failed:
			wrong++
		}
	}
	if timeouts != 1 || wrong != 1 {
		t.Errorf("findings %+v: %d timeouts and %d wrong sums, want one of each", o.Findings, timeouts, wrong)
	}
	if hangs > MaxHangs {
		t.Errorf("%d replays met the call that does not return, want at most %d", hangs, MaxHangs)
	}
}
