package throttle_test

import (
	"fmt"

	"ratelab/lab/throttle"
)

// The auto-recovery preset: a degraded period set at 2 s and a pause set
// at 7 s each end by themselves at exactly their TTL of 3 s, and the gate
// is seen in them one nanosecond before.
func Example() {
	sc, err := throttle.Preset("auto-recovery")
	if err != nil {
		panic(err)
	}
	r, err := throttle.New(sc, throttle.Reference, 1)
	if err != nil {
		panic(err)
	}
	r.Step(sc.DurationNs)
	for _, e := range r.Events {
		switch e.Kind {
		case throttle.Operator:
			fmt.Printf("%d ns: the operator sets state %d, recovery due at %d ns\n", e.AtNs, e.After.State, e.After.RecoverAtNs)
		case throttle.Recovered:
			fmt.Printf("%d ns: Normal again; still state %d at %d ns\n", e.AtNs, e.Before.State, e.LastSeenNs)
		}
	}
	fmt.Println("refused by no rule:", r.OtherError() != "")
	// Output:
	// 2000000000 ns: the operator sets state 1, recovery due at 5000000000 ns
	// 5000000000 ns: Normal again; still state 1 at 4999999999 ns
	// 7000000000 ns: the operator sets state 2, recovery due at 10000000000 ns
	// 10000000000 ns: Normal again; still state 2 at 9999999999 ns
	// refused by no rule: false
}
