package check

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"ratelab/grader/report"
)

// tally is a toy implementation under test: a running total with a known
// bug, an Add of 7 or more adds one too few.
type tally struct{ sum uint64 }

func (c *tally) Add(n uint64) uint64 {
	if n >= 7 {
		n--
	}
	c.sum += n
	return c.sum
}

// tallyReplay replays s on a fresh tally and on the model, a plain sum.
func tallyReplay(s Script[uint64, uint64]) Trace {
	t, c, ok := Begin(fmt.Sprintf("New(%d)", s.Setup), func() *tally { return &tally{sum: s.Setup} })
	if !ok {
		return t
	}
	want := s.Setup
	for _, n := range s.Ops {
		want += n
		got, p := Call(func() uint64 { return c.Add(n) })
		if !t.Step(fmt.Sprintf("Add(%d)", n), U(got), U(want), p) {
			return t
		}
	}
	return t
}

// tallyDomain draws scripts of Adds of 0 to 9 on a tally started below
// 1000; Valid keeps the Adds even, if even is set.
type tallyDomain struct{ even bool }

func (d tallyDomain) Gen(r *rand.Rand, size int) Script[uint64, uint64] {
	s := Script[uint64, uint64]{Setup: Between(r, 0, 999)}
	for range Ops(r, size, 1, 20) {
		n := Between(r, 0, 9)
		if d.even {
			n &^= 1
		}
		s.Ops = append(s.Ops, n)
	}
	return s
}

func (d tallyDomain) Valid(s Script[uint64, uint64]) int {
	if s.Setup > 999 {
		return -1
	}
	for i, n := range s.Ops {
		if n > 9 || d.even && n%2 != 0 {
			return i
		}
	}
	return len(s.Ops)
}

func tallyProperty(d tallyDomain) Property[uint64, uint64] {
	return Over(d, Smaller, Smaller, tallyReplay)
}

func TestPropertyFindsTheBugAndShrinksToTheMinimalScript(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		o := tallyProperty(tallyDomain{}).Run(seed, "why")
		if o.Status != report.Failed {
			t.Fatalf("seed %d: %s %s, want a failure", seed, o.Status, o.Message)
		}
		want := &report.Counterexample{Setup: "New(0)", SetupCall: &report.Call{Name: "New", Args: map[string]any{"arg1": "0"}},
			Steps: []report.Step{{Call: "Add(7)", Got: "6", Want: "7", Name: "Add", Args: map[string]any{"arg1": "7"}}}}
		if ce := o.Counterexample; !reflect.DeepEqual(ce, want) {
			t.Errorf("seed %d: counterexample %+v, want %+v", seed, ce, want)
		}
		if o.Message != "Add(7) = 6; want 7. why" {
			t.Errorf("seed %d: message %q", seed, o.Message)
		}
	}
}

func TestPropertyPassesACorrectImplementation(t *testing.T) {
	p := tallyProperty(tallyDomain{})
	p.Replay = func(s Script[uint64, uint64]) Trace { // a fixed tally: the model replayed on itself
		t := Trace{Setup: fmt.Sprintf("New(%d)", s.Setup)}
		sum := s.Setup
		for _, n := range s.Ops {
			sum += n
			t.Step(fmt.Sprintf("Add(%d)", n), U(sum), U(sum), nil)
		}
		return t
	}
	if o := p.Run(1, "why"); o.Status != report.Passed {
		t.Errorf("%s %s %+v, want a pass", o.Status, o.Message, o.Counterexample)
	}
}

func TestShrinkerNeverLeavesValid(t *testing.T) {
	d := tallyDomain{even: true}
	p := tallyProperty(d)
	var seen int
	replay := p.Replay
	p.Replay = func(s Script[uint64, uint64]) Trace {
		seen++
		if d.Valid(s) != len(s.Ops) {
			t.Fatalf("replayed a script outside the domain: %+v", s)
		}
		return replay(s)
	}
	o := p.Run(1, "why")
	if o.Status != report.Failed || o.Counterexample.Steps[0].Call != "Add(8)" || len(o.Counterexample.Steps) != 1 {
		t.Fatalf("%s %+v, want Add(8) alone: 8 is the smallest even Add that fails", o.Status, o.Counterexample)
	}
	if seen < 10 {
		t.Errorf("only %d replays: the shrinker did not run", seen)
	}
}

func TestMergeFoldsACallIntoTheNext(t *testing.T) {
	p := tallyProperty(tallyDomain{})
	p.Merge = func(a, b uint64) (uint64, bool) { return a + b, a+b <= 9 }
	s := Script[uint64, uint64]{Setup: 0, Ops: []uint64{3, 4, 9}}
	var cands [][]uint64
	next := p.shrinker(s)
	for c, ok := next(); ok; c, ok = next() {
		cands = append(cands, c.(Script[uint64, uint64]).Ops)
	}
	folded := []uint64{7, 9}
	if !slices.ContainsFunc(cands, func(ops []uint64) bool { return slices.Equal(ops, folded) }) {
		t.Errorf("candidates %v: want %v, 3 folded into 4", cands, folded)
	}
	for _, ops := range cands {
		if slices.Equal(ops, []uint64{3, 13}) {
			t.Errorf("candidates %v hold [3 13]: Merge refused to fold 4 and 9", cands)
		}
	}
}

// ExampleProperty checks a toy running total whose Add of 7 or more adds
// one too few: the property finds the bug on generated scripts and shrinks
// the failing script to the minimal one.
func ExampleProperty() {
	o := Over[uint64, uint64](tallyDomain{}, Smaller, Smaller, tallyReplay).Run(1, "Add adds exactly n.")
	fmt.Println(o.Status)
	fmt.Println(o.Message)
	fmt.Println(o.Counterexample.Setup)
	for _, s := range o.Counterexample.Steps {
		fmt.Printf("%s = %s; want %s\n", s.Call, s.Got, s.Want)
	}
	// Output:
	// failed
	// Add(7) = 6; want 7. Add adds exactly n.
	// New(0)
	// Add(7) = 6; want 7
}
