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

func TestTrapKeepsTheCheckOnItsOwnMistake(t *testing.T) {
	// Only 9s and positive amounts: a wrong sum is there, the negative
	// amounts the check is about are not, so it blames nothing.
	p := adderProperty(func(r *rand.Rand) int { return Pick(r, 1, 2, 9) })
	p.Trap = func(s Script[int, int], tr Trace) bool {
		return slices.ContainsFunc(s.Ops[:len(tr.Steps)], func(x int) bool { return x < 0 })
	}
	if o := p.Run(1, "negatives"); o.Status != "skipped" || o.Message != NotJudged || o.Counterexample != nil {
		t.Errorf("a check about negative amounts, on code that fails only without any: %s %q %+v; want it not judged, blaming nothing", o.Status, o.Message, o.Counterexample)
	}
	// Code that fails nothing passes.
	p.Replay = func(s Script[int, int]) Trace { return Trace{} }
	if o := p.Run(1, "negatives"); o.Status != "passed" {
		t.Errorf("correct code: %s, want passed", o.Status)
	}
	p.Replay = replayAdder
	// With negative amounts too, it fails, and the counterexample has one.
	p.Gen = adderProperty(func(r *rand.Rand) int { return Pick(r, 1, 2, 9, -4) }).Gen
	o := p.Run(1, "negatives")
	if o.Status != "failed" || o.Counterexample == nil {
		t.Fatalf("outcome %s, want failed with a counterexample", o.Status)
	}
	if steps := o.Counterexample.Steps; steps[len(steps)-1].Call[:4] != "Add(" || !containsNegative(steps) {
		t.Errorf("counterexample %+v lacks the negative amount the check names", steps)
	}
}

func containsNegative(steps []report.Step) bool {
	for _, s := range steps {
		var x int
		fmt.Sscanf(s.Call, "Add(%d)", &x)
		if x < 0 {
			return true
		}
	}
	return false
}

func TestShrinkingKeepsTheKindOfFailure(t *testing.T) {
	p := adderProperty(nil)
	wrong := Script[int, int]{Setup: 0, Ops: []int{2, -6}}
	panics := Script[int, int]{Setup: 0, Ops: []int{13}}
	elsewhere := Script[int, int]{Setup: 0, Ops: []int{1, 13}}
	first := failureOf(p.Replay(wrong))
	if !p.fails(wrong, &first) {
		t.Error("the first failure does not count as failing")
	}
	if p.fails(panics, &first) {
		t.Error("a panic counted as the same failure as a wrong sum")
	}
	pf := failureOf(p.Replay(panics))
	if !p.fails(elsewhere, &pf) {
		t.Error("the same panic in the same method, one call later, did not count as the same failure")
	}
}

func TestTrapOverAsksOnlyOfAFailingCall(t *testing.T) {
	asked := 0
	always := func(Script[int, int], Trace, func(Script[int, int]) Trace) bool { asked++; return true }
	trap := TrapOver(always, replayAdder)
	atSetup := Trace{Setup: "New(0)", Bad: true}
	if trap(Script[int, int]{}, atSetup) || asked != 0 {
		t.Errorf("a failure at the setup: trap = true or asked %d times, want false, not asked", asked)
	}
	atCall := replayAdder(Script[int, int]{Ops: []int{9}})
	if !atCall.Bad || !trap(Script[int, int]{Ops: []int{9}}, atCall) || asked != 1 {
		t.Errorf("a failing call: trap = false or asked %d times, want true, asked once", asked)
	}
}
