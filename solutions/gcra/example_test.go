package gcra_test

import (
	"fmt"

	"ratelab/solutions/gcra"
)

func ExampleNew() {
	// 3 calls per second, bursts of 2, starting at t=0.
	g := gcra.New(3, 2, 0)
	fmt.Println(g.TryAcquire(0), g.TryAcquire(0), g.TryAcquire(0))
	// Output: true true false
}

func ExampleGCRA_TryAcquire() {
	g := gcra.New(3, 1, 0)
	g.TryAcquire(0)
	// One interval at 3 per second is 333_333_333.3... ns: exactly when a
	// token bucket of 1 token refilled at 3 per second has its token back.
	fmt.Println(g.TryAcquire(333_333_333))
	fmt.Println(g.TryAcquire(333_333_334))
	// Output:
	// false
	// true
}
