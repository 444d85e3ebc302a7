package tokenbucket_test

import (
	"fmt"

	"ratelab/solutions/tokenbucket"
)

func ExampleNew() {
	// 10 tokens of burst, 1000 tokens per second, starting full at t=0.
	b := tokenbucket.New(10, 1000, 0)
	fmt.Println(b.Available(0))
	// Output: 10
}

func ExampleTokenBucket_TryAcquire() {
	b := tokenbucket.New(2, 1000, 0)
	fmt.Println(b.TryAcquire(0, 2))         // the whole burst
	fmt.Println(b.TryAcquire(500_000, 1))   // 0.5 ms later: half a token
	fmt.Println(b.TryAcquire(1_000_000, 1)) // 1 ms later: one whole token
	fmt.Println(b.TryAcquire(5_000_000, 3)) // never more than capacity
	// Output:
	// true
	// false
	// true
	// false
}

func ExampleTokenBucket_Available() {
	b := tokenbucket.New(5, 1, 0)
	b.TryAcquire(0, 5)
	fmt.Println(b.Available(2_500_000_000)) // 2.5 s at 1 token/s
	fmt.Println(b.Available(1_000_000_000)) // a step back in time adds nothing
	// Output:
	// 2
	// 2
}
