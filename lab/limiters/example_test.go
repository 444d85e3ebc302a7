package limiters_test

import (
	"fmt"

	"ratelab/lab/limiters"
)

// A fixed window of 3 per second lets 6 messages through in 2 ms around the
// boundary at 1 s.
func ExampleFixedWindow() {
	f := limiters.NewFixedWindow(3, 1_000_000_000)
	passed := 0
	for _, now := range []uint64{999_000_000, 999_500_000, 999_999_999, 1_000_000_000, 1_000_500_000, 1_001_000_000} {
		if f.TryAcquire(now) {
			passed++
		}
	}
	fmt.Println(passed, "of 6 passed")
	// Output: 6 of 6 passed
}

// A sliding log of 3 per second holds at the same boundary.
func ExampleSlidingLog() {
	l := limiters.NewSlidingLog(3, 1_000_000_000)
	passed := 0
	for _, now := range []uint64{999_000_000, 999_500_000, 999_999_999, 1_000_000_000, 1_000_500_000, 1_001_000_000} {
		if l.TryAcquire(now) {
			passed++
		}
	}
	fmt.Println(passed, "of 6 passed")
	fmt.Println(l.Count(1_999_000_000), "still in the window at 1.999 s")
	// Output:
	// 3 of 6 passed
	// 2 still in the window at 1.999 s
}

// A naive bucket at 1,000 tokens per second, called every 100 µs, earns
// 0.1 token per call and throws each one away.
func ExampleNaiveBucket() {
	b := limiters.NewNaiveBucket(1, 1000, 0)
	passed := 0
	for now := uint64(0); now < 10_000_000; now += 100_000 { // 10 ms
		if b.TryAcquire(now) {
			passed++
		}
	}
	fmt.Println(passed, "passed; lost", b.Lost(), "tokens")
	// Output: 1 passed; lost 9.9 tokens
}

func ExampleCredit_String() {
	fmt.Println(limiters.Credit{Tokens: 3, Units: 140_000_000})
	// Output: 3.14
}

// The reference sliding window, with the per-bucket counts the lab shows.
func ExampleSlidingWindow() {
	const window, k = 1_000_000_000, 4 // buckets of 250 ms
	w := limiters.NewSlidingWindow(limiters.Reference.NewWindow(10, window, k), window, k)
	for _, now := range []uint64{0, 300_000_000, 310_000_000, 900_000_000} {
		w.TryAcquire(now)
	}
	fmt.Println(w.Buckets(nil, 900_000_000), w.Count(900_000_000))
	fmt.Println(w.Buckets(nil, 1_100_000_000), w.Count(1_100_000_000))
	// Output:
	// [1 2 0 1] 4
	// [2 0 1 0] 3
}
