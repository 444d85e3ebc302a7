package target_test

import (
	"fmt"

	"ratelab/lab/target"
)

// The "gets healthier" profile: cold caches, then a warm-up from 20 s to
// 24 s.
func ExampleProfile_CapacityAt() {
	p, _ := target.Named(target.HealthierName)
	for _, s := range []uint64{0, 20, 22, 24, 60} {
		fmt.Printf("%2d s: %g\n", s, p.CapacityAt(s*1_000_000_000))
	}
	// Output:
	//  0 s: 50
	// 20 s: 50
	// 22 s: 110
	// 24 s: 170
	// 60 s: 170
}

// Forty attempts against a capacity of 30: the robust target refuses the
// ten beyond it; the fragile one loses ten more to the overload.
func ExampleTarget_Failures() {
	robust := target.New(target.Profile{Capacity: 30}, 1)
	fragile := target.New(target.Profile{Capacity: 30, Collapse: 1}, 1)
	fmt.Println("robust:", robust.Failures(0, 40), "of 40 fail")
	fmt.Println("fragile:", fragile.Failures(0, 40), "of 40 fail")
	fmt.Println("within capacity:", fragile.Failures(0, 30), "of 30 fail")
	// Output:
	// robust: 10 of 40 fail
	// fragile: 20 of 40 fail
	// within capacity: 0 of 30 fail
}

// Two workers taking exactly 10 ms: the third request at time 0 waits for
// the first worker to be free.
func ExampleQueue() {
	q := target.NewQueue(2, 10_000_000, 0, 1)
	for range 4 {
		fmt.Println("done at", q.Admit(0)/1_000_000, "ms")
	}
	fmt.Println(q.Throughput(), "requests per second at most")
	// Output:
	// done at 10 ms
	// done at 10 ms
	// done at 20 ms
	// done at 20 ms
	// 200 requests per second at most
}
