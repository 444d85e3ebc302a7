package breaker_test

import (
	"fmt"

	"ratelab/lab/breaker"
)

// The outage through the reference breaker and without one: the breaker
// spares the backend the retries while it is down, and ignores the results
// that arrive after it changed state.
func Example() {
	sc, _ := breaker.Named(breaker.OutageName)
	r, err := breaker.New(sc, breaker.Reference)
	if err != nil {
		panic(err)
	}
	r.Step(sc.DurationNs)
	on, off := r.Breaker.Counts, r.Bare.Counts
	fmt.Printf("attempts at the backend while down: %d with the breaker, %d without\n", on.DownAttempts, off.DownAttempts)
	fmt.Printf("late results: %d, of which changed the breaker: %d\n", on.Late, on.LateChanged)
	fmt.Println("ends", r.Breaker.State())
	// Output:
	// attempts at the backend while down: 15 with the breaker, 1009 without
	// late results: 11, of which changed the breaker: 0
	// ends closed
}
