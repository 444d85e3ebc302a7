package adaptive_test

import (
	"fmt"
	"testing"

	"ratelab/lab/adaptive"
)

func TestActionString(t *testing.T) {
	want := []string{"hold", "double", "back off", "recover", "probe"}
	for a, w := range want {
		if got := adaptive.Action(a).String(); got != w {
			t.Errorf("Action(%d).String() = %q, want %q", a, got, w)
		}
	}
	if got := adaptive.Action(9).String(); got != "action 9" {
		t.Errorf("Action(9).String() = %q, want %q", got, "action 9")
	}
}

// The reference governor through the lab's interface: the Decision keeps
// the exercise's action numbers and its Reason.
func ExampleReference() {
	g := adaptive.Reference.NewGovernor(adaptive.GovernorConfig{Floor: 10, Ceiling: 200, Low: 0.01, High: 0.05})
	fmt.Println("opening offer", g.Offer())
	d := g.Observe(0, 100)
	fmt.Printf("%v %.4g %.4g\n", d.Action, d.Offer, d.LastBad)
	d = g.Observe(31, 200)
	fmt.Printf("%v %.4g %.4g\n", d.Action, d.Offer, d.LastBad)
	fmt.Println(d.Reason)

	l := adaptive.Reference.NewLimit(adaptive.DefaultLimitConfig())
	fmt.Println("limit", l.Limit(), "then", l.Update(100_000_000, 20))
	// Output:
	// opening offer 10
	// double 20 0
	// back off 13.8 20
	// frac 0.31 > high 0.05: back off x0.69 to 13.8
	// limit 20 then 20
}
