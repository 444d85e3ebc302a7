package hunt

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"ratelab/grader/check"
)

// Double is a toy exercise's API: double a number.
type Double func(x int) int

type domain struct{ max int }

// parts is the toy suite: scripts of numbers below d.max, each doubled by
// the implementation and by the model.
func parts(ref Double) check.Parts[Double, domain, int, int] {
	return check.Parts[Double, domain, int, int]{
		Exercise: "double",
		API:      check.API[Double]{Ref: ref},
		Domains:  map[string]domain{"small": {10}, "large": {1000}},
		Property: func(d domain, impl Double) check.Property[int, int] {
			return check.Property[int, int]{
				Gen: func(r *rand.Rand, size int) check.Script[int, int] {
					s := check.Script[int, int]{}
					for range size%5 + 1 {
						s.Ops = append(s.Ops, r.Intn(d.max))
					}
					return s
				},
				Replay: func(s check.Script[int, int]) check.Trace {
					var t check.Trace
					for _, x := range s.Ops {
						if !t.Step(fmt.Sprintf("Double(%d)", x), fmt.Sprint(impl(x)), fmt.Sprint(2*x), nil) {
							break
						}
					}
					return t
				},
			}
		},
	}
}

func TestHunt(t *testing.T) {
	right := func(x int) int { return 2 * x }
	wrongAt := func(at int) Double {
		return func(x int) int {
			if x == at {
				return 0
			}
			return 2 * x
		}
	}
	tests := []struct {
		name   string
		ref    Double
		impl   Double
		killed bool
		check  string
		refs   bool // the reference fails the killing scripts too
	}{
		{"right", right, right, false, "", false},
		{"wrong everywhere the large property reaches", right, wrongAt(500), true, "large", false},
		{"wrong where the reference is wrong too", wrongAt(500), wrongAt(500), false, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Hunt(parts(tt.ref), tt.impl, 20_000, 1, time.Minute)
			if r.Killed != tt.killed || r.Check != tt.check || (r.RefFails > 0) != tt.refs {
				t.Fatalf("Hunt = %+v, want killed %v by %q, reference failing %v", r, tt.killed, tt.check, tt.refs)
			}
			if r.Killed && (r.Call != "Double(500)" || r.Got != "0" || r.Want != "1000") {
				t.Errorf("Hunt's kill = %s = %s; want %s, want Double(500) = 0; want 1000", r.Call, r.Got, r.Want)
			}
			if !r.Killed && r.Scripts != 20_000 {
				t.Errorf("Hunt replayed %d scripts, want 20000", r.Scripts)
			}
		})
	}
}

// TestConvert: the adapter hands over a function literal, whose type is
// the API's underlying type, or a value of the API's own type.
func TestConvert(t *testing.T) {
	var lit any = func(x int) int { return x + 1 }
	if got := convert[Double](lit)(1); got != 2 {
		t.Errorf("convert(literal)(1) = %d, want 2", got)
	}
	var named any = Double(func(x int) int { return x + 2 })
	if got := convert[Double](named)(1); got != 3 {
		t.Errorf("convert(Double)(1) = %d, want 3", got)
	}
}
