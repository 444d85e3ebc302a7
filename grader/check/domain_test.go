package check

import (
	"math/rand"
	"slices"
	"testing"
)

// upTo is a domain of int scripts whose calls keep to its rules while
// they are below its setup, and whose setup keeps to them if not negative.
type upTo struct{}

func (upTo) Gen(*rand.Rand, int) Script[int, int] { return Script[int, int]{} }

func (upTo) Valid(s Script[int, int]) int {
	if s.Setup < 0 {
		return -1
	}
	for i, o := range s.Ops {
		if o >= s.Setup {
			return i
		}
	}
	return len(s.Ops)
}

func TestValidPrefixCutsAtTheFirstCallOutOfTheRules(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup int
		ops   []int
		want  []int
	}{
		{"all in", 5, []int{1, 2, 3}, []int{1, 2, 3}},
		{"cut at the first out", 5, []int{1, 7, 2}, []int{1}},
		{"first out", 5, []int{9, 1}, []int{}},
		{"setup out", -1, []int{1, 2}, []int{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ValidPrefix[int, int](upTo{}, Script[int, int]{Setup: c.setup, Ops: c.ops})
			if got.Setup != c.setup || !slices.Equal(got.Ops, c.want) {
				t.Errorf("ValidPrefix(setup %d, %v) = setup %d, %v; want setup %d, %v", c.setup, c.ops, got.Setup, got.Ops, c.setup, c.want)
			}
		})
	}
}
