package slidingwindow_test

import (
	"fmt"

	"ratelab/solutions/slidingwindow"
)

func ExampleNew() {
	// At most 2 calls in any 1 s, counted in 4 buckets of 250 ms.
	w := slidingwindow.New(2, 1_000_000_000, 4)
	fmt.Println(w.Count(0))
	// Output: 0
}

func ExampleSlidingWindow_TryAcquire() {
	w := slidingwindow.New(2, 1_000_000_000, 4)
	fmt.Println(w.TryAcquire(0))             // bucket 0
	fmt.Println(w.TryAcquire(900_000_000))   // bucket 3
	fmt.Println(w.TryAcquire(999_999_999))   // still buckets 0-3: full
	fmt.Println(w.TryAcquire(1_000_000_000)) // bucket 4: bucket 0 left the window
	// Output:
	// true
	// true
	// false
	// true
}

func ExampleSlidingWindow_Count() {
	w := slidingwindow.New(10, 1_000_000_000, 4)
	w.TryAcquire(0)
	w.TryAcquire(300_000_000)
	fmt.Println(w.Count(300_000_000))
	fmt.Println(w.Count(1_000_000_000)) // buckets 1-4: the call at 0 left
	fmt.Println(w.Count(0))             // time never rewinds
	// Output:
	// 2
	// 1
	// 1
}
